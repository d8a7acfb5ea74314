/**
 * How a task run persists its task: the seam between the run's write path (`TaskWriter`:
 * order, state machine, fold, push, waiters) and the two ways a task reaches the store and
 * the event log. A run gets one mode when it is made and keeps it: {@link LocalPersistence}
 * (one process: log at once, save on state changes) or {@link LeasedPersistence} (durable
 * mode: save every event under the lease first, then log). Apart from the writer so each
 * mode reads as one class instead of branches through the write path.
 * @internal
 */
import type { StreamResponse, Task, TaskState } from '@a2a-polyglot/model';
import type { Logger } from './logger.js';
import type { SaveOptions } from './task-store.js';

/** What a persistence mode needs of the run it persists (the `TaskWriter`). */
export interface PersistedRun {
  readonly streaming: boolean;
  /** The live task (undefined before creation). */
  readonly current: Task | undefined;
  /** Seq of the last applied event: the version the live task is at. */
  readonly lastSeq: number;
  /** Set once the run lost its task: nothing is written after that. */
  readonly failure: unknown;
  /** Asks for a save at the end of this turn: {@link TaskPersistence.save} then runs on the run's queue. */
  scheduleSave(): void;
  /** A write failed: the run stops for good (fenced). */
  lose(error: unknown): void;
  /**
   * Hands an event that is persisted (and logged) to push delivery and wakes whoever waits on
   * it; `logSealed`: the append already sealed the log.
   */
  announce(event: StreamResponse, state: TaskState | undefined, creating: boolean, logSealed?: boolean): boolean;
}

/** One run's persistence: which writes it makes, and when the applied events are logged and announced. */
export interface TaskPersistence {
  /** The last save claimed the task's lease (released when the run ends); always false in one process. */
  readonly leased: boolean;
  /**
   * The writer applied `event` to the live task as `seq`: persist, log and announce it, now or
   * with the rest of the turn. False when it was not applied after all; synchronous when
   * nothing on the way is asynchronous.
   */
  applied(event: StreamResponse, seq: number, state: TaskState | undefined, creating: boolean): boolean | Promise<boolean>;
  /** The save the writer scheduled for the end of a turn; runs as a step of the run's queue. */
  save(): unknown;
  /** Saves `live` as `version` now (a follow-up's first write, which claims the lease in durable mode). */
  persist(live: Task, version: number): Promise<void>;
  /** The agent's execution returned: a lease still held (interrupted task) is let go. Undefined when nothing to do. */
  endExecution(): Promise<void> | undefined;
}

/** The options of a save that hands the finished task over to the store. */
export const FINAL_SAVE: SaveOptions = Object.freeze({ final: true });

/** An append that failed: the store has the event; readers that miss it in the log resync from the store. */
export function logAppendFailed(logger: Logger, seq: number, error: unknown): void {
  logger.warn({ seq, err: error }, 'appending to the event log failed');
}
