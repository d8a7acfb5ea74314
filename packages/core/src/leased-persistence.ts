import type { StreamResponse, Task, TaskState } from '@a2a-polyglot/model';
import type { AppliedEvent, RunDeps } from './task-run-types.js';
import { FINAL_SAVE, logAppendFailed, type PersistedRun, type TaskPersistence } from './task-persistence.js';
import { isTerminal } from './task-state.js';
import type { TaskLease } from './task-store.js';

/**
 * Persistence of a run in durable mode (a store shared by several instances, `cluster` set):
 * every event is saved, under this instance's lease, before it is logged, so any instance
 * reads the same task and the store's version check arbitrates between writers. A burst is
 * saved together (group commit): the events applied in one turn are saved with one store
 * write at the end of the turn (one version check covers them all), then logged in order
 * (one append where the log can), then announced. The store is never behind the log: a crash
 * between the two leaves the log short, and its readers resync from the store.
 * @internal
 */
export class LeasedPersistence implements TaskPersistence {
  private persistedVersion: number;
  private leasedNow = false;
  /** Events applied to the live task this turn, saved and logged together. */
  private unsaved: AppliedEvent[] = [];
  /** The agent's execution returned: later saves no longer claim the lease. */
  private executionEnded = false;

  constructor(
    private readonly run: PersistedRun,
    private readonly deps: RunDeps,
    private readonly lease: TaskLease,
    private readonly tenant: string,
    private readonly owner: string | undefined,
    private readonly logKey: string,
  ) {
    this.persistedVersion = run.lastSeq;
  }

  get leased(): boolean {
    return this.leasedNow;
  }

  applied(event: StreamResponse, seq: number, state: TaskState | undefined, creating: boolean): boolean {
    // Group commit: saved, logged and announced with the rest of this turn's events.
    this.unsaved.push({ event, seq, state, creating });
    this.run.scheduleSave();
    return true;
  }

  /**
   * Saves the live task once for every event applied since the last save (a lost race loses
   * the whole group, and none of it is logged or announced), then logs them in order and
   * announces each.
   */
  async save(): Promise<void> {
    const group = this.unsaved;
    this.unsaved = [];
    const last = group[group.length - 1];
    const live = this.run.current;
    if (last === undefined || this.run.failure || !live) return;
    try {
      await this.persist(live, last.seq);
    } catch (error) {
      this.run.lose(error);
      return;
    }
    const log = this.deps.log;
    const lastState = last.state;
    let sealed = false;
    if (log.appendMany) {
      // A group ending the task seals its log in the same step (no separate round trip).
      const seal = lastState !== undefined && isTerminal(lastState) ? { awaitingReader: this.run.streaming } : undefined;
      try {
        await log.appendMany(this.logKey, group, { seal });
        sealed = seal !== undefined;
      } catch (error) {
        logAppendFailed(this.deps.logger, group[0]?.seq ?? last.seq, error);
      }
    } else {
      for (const applied of group) {
        try {
          await log.append(this.logKey, applied.event, applied.seq);
        } catch (error) {
          logAppendFailed(this.deps.logger, applied.seq, error);
        }
      }
    }
    for (const applied of group) this.run.announce(applied.event, applied.state, applied.creating, sealed);
  }

  /**
   * Claims the lease while the run goes on (a task left interrupted keeps it until the run
   * ends, so a follow-up cannot start elsewhere meanwhile) and releases it with the terminal
   * write or the run's last one.
   */
  async persist(live: Task, version: number): Promise<void> {
    const state = live.status?.state;
    const terminal = state !== undefined && isTerminal(state);
    const lease = !this.executionEnded && !terminal ? this.lease : undefined;
    // `apply` refuses every event after a terminal state, so the live task is handed over as it is.
    await this.deps.store.save(
      { tenant: this.tenant, owner: this.owner, task: live, version },
      this.persistedVersion,
      lease,
      terminal ? FINAL_SAVE : undefined,
    );
    this.persistedVersion = version;
    this.leasedNow = lease !== undefined;
  }

  /** An interrupted task keeps the lease until its run ends; let it go now. */
  endExecution(): Promise<void> | undefined {
    this.executionEnded = true;
    return this.leasedNow && !this.run.failure ? this.release() : undefined;
  }

  private async release(): Promise<void> {
    const live = this.run.current;
    if (!live) return;
    try {
      await this.persist(live, this.run.lastSeq);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'releasing the task lease failed; it will run out');
    }
  }
}
