import type { StreamResponse, Task, TaskState } from '@a2a-polyglot/model';
import type { EventLog } from './event-log.js';
import type { RunDeps } from './task-run-types.js';
import { FINAL_SAVE, logAppendFailed, type PersistedRun, type TaskPersistence } from './task-persistence.js';
import { isTerminal } from './task-state.js';
import type { TaskStore } from './task-store.js';
import { isThenable } from './serial-queue.js';

/**
 * Persistence of a run in one process (no `cluster`): every event is logged at once, in the
 * agent's turn, and the task is saved after state changes only, once per burst of reports (a
 * save scheduled for the end of the turn covers them all). Nobody else writes the task, so no
 * lease; with the in-memory store and log nothing here waits at all.
 * @internal
 */
export class LocalPersistence implements TaskPersistence {
  readonly leased = false;
  private persistedVersion: number;
  private readonly store: TaskStore;
  private readonly log: EventLog;

  constructor(
    private readonly run: PersistedRun,
    private readonly deps: RunDeps,
    private readonly tenant: string,
    private readonly owner: string | undefined,
    private readonly logKey: string,
  ) {
    this.persistedVersion = run.lastSeq;
    this.store = deps.store;
    this.log = deps.log;
  }

  applied(event: StreamResponse, seq: number, state: TaskState | undefined, creating: boolean): boolean | Promise<boolean> {
    if (state !== undefined) this.run.scheduleSave();
    let appended: number | Promise<number> | undefined;
    try {
      // Nobody follows an unstreamed run (see EventLog.isFollowed): its seq is counted, not logged.
      if (!this.run.streaming && this.log.isFollowed?.(this.logKey) === false) return this.run.announce(event, state, creating);
      appended = this.log.append(this.logKey, event, seq);
    } catch (error) {
      logAppendFailed(this.deps.logger, seq, error);
    }
    if (isThenable(appended)) {
      return appended.then(
        () => this.run.announce(event, state, creating),
        (error: unknown) => {
          logAppendFailed(this.deps.logger, seq, error);
          return this.run.announce(event, state, creating);
        },
      );
    }
    return this.run.announce(event, state, creating);
  }

  save(): unknown {
    const live = this.run.current;
    const version = this.run.lastSeq;
    if (this.run.failure || !live || version === this.persistedVersion) return undefined;
    try {
      const saved = this.persist(live, version);
      if (isThenable(saved)) return saved.then(undefined, (error: unknown) => this.run.lose(error));
    } catch (error) {
      this.run.lose(error);
    }
    return undefined;
  }

  async persist(live: Task, version: number): Promise<void> {
    const state = live.status?.state;
    const terminal = state !== undefined && isTerminal(state);
    // `apply` refuses every event after a terminal state, so the live task is handed over as it is.
    await this.store.save({ tenant: this.tenant, owner: this.owner, task: live, version }, this.persistedVersion, undefined, terminal ? FINAL_SAVE : undefined);
    this.persistedVersion = version;
  }

  endExecution(): undefined {
    return undefined;
  }
}
