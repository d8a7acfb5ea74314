import { TaskState, type StreamResponse, type Task } from '@a2a-polyglot/model';
import { A2AError } from './a2a-error.js';
import { Deferred } from './deferred.js';
import { A2AErrorCode } from './error-code.js';
import { taskLogKey } from './event-log.js';
import type { Logger } from './logger.js';
import type { ObservedTask, TaskRunObservation } from './observer.js';
import { eventState, foldEvent, taskView } from './task-events.js';
import type { FirstAnswer, RunDeps, RunInit } from './task-run-types.js';
import { canTransition, isSettled, isTerminal } from './task-state.js';
import { isVersionConflict } from './task-store.js';
import { SerialQueue } from './serial-queue.js';
import { LeasedPersistence } from './leased-persistence.js';
import { LocalPersistence } from './local-persistence.js';
import type { PersistedRun, TaskPersistence } from './task-persistence.js';

/**
 * The single write path of a task run (the `TaskRun` that holds it is the agent's side): every event
 * is applied strictly in order through one {@link SerialQueue}: check the state machine, fold
 * into the live task, persist, append to the event log under the next seq, hand to push
 * delivery, wake waiters. Nothing here waits for a subscriber. With the in-memory store and
 * log nothing here waits at all: every event is applied in the caller's turn.
 *
 * Persisting is the run's {@link TaskPersistence}, chosen once when the run is made:
 * {@link LeasedPersistence} in durable mode (every event saved under the lease before it is
 * logged, a turn's events saved together), {@link LocalPersistence} in one process (logged at
 * once, saved on state changes). The writer only schedules the save for the end of the turn.
 *
 * The writer can lose its task: the store refuses a stale write (another instance canceled it,
 * or a sweep failed it), or the store is down. It then stops for good ("fenced"): the run's
 * signal aborts, later events are dropped, and readers go to the store.
 * @internal
 */
export class TaskWriter implements PersistedRun {
  readonly taskId: string;
  readonly contextId: string;
  readonly tenant: string;
  readonly streaming: boolean;

  /** Resolves with the first answer: a reply message, or the task's existence. */
  readonly first = new Deferred<FirstAnswer>();
  /** Resolves when this run moves the task into a terminal or interrupted state, or ends. */
  readonly settled = new Deferred<void>();

  /** The seq of the task as the run found it (a follow-up's or cancel's stored task); 0 for a new task. */
  readonly startSeq: number;
  private live: Task | undefined;
  private version: number;
  /** The run itself moved the task into a settled state (not merely found it so). */
  private settledByRun = false;
  private readonly queue: SerialQueue;
  /** A save of the live task is scheduled for the end of this turn. */
  private saveScheduled = false;
  /** How the task reaches the store and the log (one mode per run, see the class doc). */
  private readonly persistence: TaskPersistence;
  /** Made on first use: most agents that finish at once never look at their signal. */
  private abortController: AbortController | undefined;
  private readonly logKey: string;
  /** Why the run lost its task (fenced), if it did. */
  private lostBy: A2AError | undefined;
  /** {@link letGo} began: what the agent reports from now on is dropped. */
  private reportsClosed = false;
  /** The observed run's observation until its first event is announced (then cleared); the run sets it. */
  awaitingFirstEvent: TaskRunObservation | undefined;

  constructor(
    private readonly deps: RunDeps,
    init: RunInit,
  ) {
    this.tenant = init.tenant;
    this.taskId = init.taskId;
    this.contextId = init.contextId;
    this.streaming = init.streaming;
    this.live = init.existing?.task;
    this.version = init.existing?.version ?? 0;
    this.startSeq = this.version;
    this.logKey = taskLogKey(init.tenant, init.taskId);
    this.queue = new SerialQueue(logApplyFailure, deps.logger);
    this.persistence = deps.lease
      ? new LeasedPersistence(this, deps, deps.lease, init.tenant, init.owner, this.logKey)
      : new LocalPersistence(this, deps, init.tenant, init.owner, this.logKey);
  }

  /** Why this run lost its task (see the class doc), or undefined while it owns it. */
  get failure(): A2AError | undefined {
    return this.lostBy;
  }

  /** The run holds the task's lease in the store (renewed by the handler while it runs). */
  get holdsLease(): boolean {
    return this.persistence.leased && this.lostBy === undefined;
  }

  /** Current state of the task (undefined before creation). */
  get state(): TaskState | undefined {
    return this.live?.status?.state;
  }

  /** The live task itself (undefined before creation), for the run's persistence; answers use {@link view}. */
  get current(): Task | undefined {
    return this.live;
  }

  /** The run itself moved the task into a settled state (not merely found it so). */
  get settledInRun(): boolean {
    return this.settledByRun;
  }

  /** Sequence number of the last applied event: the version of {@link view}. */
  get lastSeq(): number {
    return this.version;
  }

  /** A consistent copy of the live task together with the seq it reflects. */
  view(historyLength?: number): { task: Task; seq: number } | undefined {
    if (this.lostBy) return undefined;
    return this.live && { task: taskView(this.live, historyLength), seq: this.version };
  }

  /**
   * The live task, for steps that only run once it exists (after a state check); throws a
   * clear error instead of a TypeError should one ever run before the task is created.
   */
  liveTask(): Task {
    const live = this.live;
    if (!live) throw new A2AError(A2AErrorCode.Internal, `Task ${this.taskId} has not been created yet`);
    return live;
  }

  /** The run's abort controller, made when first needed (most runs are never aborted). */
  controller(): AbortController {
    this.abortController ??= new AbortController();
    return this.abortController;
  }

  /** Which task this run serves, for observers. */
  ref(): ObservedTask {
    return { taskId: this.taskId, contextId: this.contextId, tenant: this.tenant };
  }

  /** {@link apply} as a queue step, made once: a report queues it with its event, no closure per event. */
  private readonly applyStep = (event: StreamResponse): unknown => this.apply(event);

  enqueue(step: () => unknown): void {
    this.queue.push(step);
  }

  /** An event the agent reported: applied in order, unless {@link letGo} closed the run to reports. */
  report(event: StreamResponse): void {
    if (this.reportsClosed) return;
    this.queue.push(this.applyStep, event);
  }

  /**
   * Resolves once every queued report is applied and the task saved: the scheduled save runs
   * now, and so does one that a report applied meanwhile scheduled. Undefined when that is
   * already so (nothing scheduled, nothing pending): the caller need not wait a turn.
   */
  drain(): Promise<void> | undefined {
    this.saveNow();
    if (!this.saveScheduled && !this.queue.busy) return undefined;
    return this.drainPending();
  }

  private async drainPending(): Promise<void> {
    do {
      this.saveNow();
      await this.queue.idle();
    } while (this.saveScheduled || this.queue.busy);
  }

  /**
   * The single write path: state machine, fold, persist, log, push, wake waiters. Returns
   * false when the event was not applied (ignored, or the run lost its task); synchronously
   * when nothing on the way is asynchronous (the in-process mode with in-memory collaborators).
   */
  apply(event: StreamResponse): boolean | Promise<boolean> {
    if (this.lostBy) return false;
    const creating = event.payload?.$case === 'task';
    if (creating) {
      this.live = liveCopy((event.payload as { value: Task }).value);
    } else {
      const live = this.live;
      if (!live) {
        // Unreachable: the creating event is always queued first (TaskRun.ensureCreated).
        this.deps.logger.warn('event before the task exists ignored');
        return false;
      }
      const to = eventState(event);
      const from = live.status?.state;
      if (from !== undefined && isTerminal(from)) {
        this.deps.logger.debug('event after terminal state ignored');
        return false;
      }
      if (to !== undefined && !canTransition(from, to)) {
        this.deps.logger.warn({ from: TaskState[from ?? 0], to: TaskState[to] }, 'invalid state transition ignored');
        return false;
      }
      foldEvent(live, event);
    }
    // The live task and its seq move together, before any await, so a view taken while the
    // event is being saved is consistent (a stream started from it resumes after this seq).
    const seq = ++this.version;
    return this.persistence.applied(event, seq, eventState(event), creating);
  }

  /**
   * Hands a persisted (and logged) event to push delivery and wakes whoever waits on it; called
   * by the run's persistence. `logSealed`: the append already sealed the log (durable group commit).
   * @internal
   */
  announce(event: StreamResponse, state: TaskState | undefined, creating: boolean, logSealed = false): boolean {
    if (this.awaitingFirstEvent) this.firstEventAnnounced();
    if (state !== undefined) this.deps.observer?.taskStateEntered?.(state, this.ref());
    this.deps.push.dispatch(this.tenant, this.taskId, event);
    if (creating) this.first.resolve({ kind: 'task' });
    if (!creating && state !== undefined && isSettled(state)) {
      this.settledByRun = true;
      this.settled.resolve();
    }
    if (!logSealed && state !== undefined && isTerminal(state)) this.deps.log.seal(this.logKey, { awaitingReader: this.streaming });
    return true;
  }

  /** Tells the observed run its first answer is out (once). */
  firstEventAnnounced(): void {
    const observation = this.awaitingFirstEvent;
    this.awaitingFirstEvent = undefined;
    observation?.firstEvent?.();
  }

  /**
   * Saves the live task at the end of this turn (once, however many events it saw); called by
   * the run's persistence.
   * @internal
   */
  scheduleSave(): void {
    if (this.saveScheduled) return;
    this.saveScheduled = true;
    queueMicrotask(() => this.saveNow());
  }

  /** Runs a scheduled save now (queued behind any pending step). */
  saveNow(): void {
    if (!this.saveScheduled) return;
    this.saveScheduled = false;
    this.enqueue(() => this.persistence.save());
  }

  /** Saves `live` (the live task) as `version` now, through the run's persistence (see {@link TaskPersistence.persist}). */
  persist(live: Task, version: number): Promise<void> {
    return this.persistence.persist(live, version);
  }

  /** The agent's execution returned (see {@link TaskPersistence.endExecution}); undefined when there is nothing to wait for. */
  endExecution(): Promise<void> | undefined {
    return this.persistence.endExecution();
  }

  /**
   * A write failed: a lost race (the task was taken over) or a store outage. Either way the run stops.
   * @internal
   */
  lose(error: unknown): void {
    if (isVersionConflict(error)) this.deps.logger.info('task changed elsewhere; this run stops');
    else this.deps.logger.error({ err: error }, 'saving the task failed; this run stops (the lease sweep fails the task if it stays unfinished)');
    this.fence(A2AError.from(error));
  }

  /**
   * Lets the task go unsettled ({@link TaskRun.handBack}): aborts the agent, saves what it
   * reported so far, releases the lease, then fences the run so nothing later is written.
   * Resolves false when the run had already lost its task.
   */
  async letGo(reason: A2AError): Promise<boolean> {
    if (this.lostBy) return false;
    // Reports made before this are saved; none after (the agent may report as it stops).
    this.reportsClosed = true;
    this.controller().abort(reason);
    const pending = this.drain();
    if (pending) await pending;
    if (this.lostBy) return false;
    const released = this.persistence.endExecution();
    if (released) await released;
    this.fence(reason);
    return true;
  }

  fence(reason: A2AError): void {
    if (this.lostBy) return;
    this.lostBy = reason;
    this.controller().abort(reason);
    this.first.resolve({ kind: 'task' });
    this.settled.resolve();
  }
}

/** Where a failing step of a run's queue goes (one function for every run: see `SerialQueue`). */
function logApplyFailure(error: unknown, logger: Logger): void {
  logger.error({ err: error }, 'applying a task event failed');
}

/**
 * The run's own copy of a task it creates from an event: the event is logged as it is, and
 * the fold mutates only the task object, its `history` and `artifacts` arrays (appending, or
 * replacing an artifact with a copy), never a message, part or status in them; so copying
 * those three is enough to keep the logged event unchanged.
 */
function liveCopy(task: Task): Task {
  return { ...task, history: [...task.history], artifacts: task.artifacts.map((a) => ({ ...a, parts: [...a.parts] })) };
}
