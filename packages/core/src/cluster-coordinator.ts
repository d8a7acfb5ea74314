import { TaskState } from '@a2a-polyglot/model';
import type { AgentExecutor } from './agent-executor.js';
import type { Logger } from './logger.js';
import type { RunRegistry } from './run-registry.js';
import { DEFAULT_LEASE_MS, DEFAULT_SWEEP_INTERVAL_MS, type ClusterOptions } from './request-handler-options.js';
import type { TaskRun } from './task-run.js';
import type { TaskSignal } from './task-signals.js';
import { isSettled } from './task-state.js';
import { isVersionConflict, type StoredTask, type TaskLease, type TaskStore } from './task-store.js';

/**
 * The status message of a task whose instance stopped (crashed, was killed) while it ran: the
 * lease sweep moves such a task to FAILED with it.
 */
export const ABANDONED_TASK_MESSAGE = 'The instance running this task stopped before the task finished';

/** What a {@link ClusterCoordinator} works with, all owned by the `RequestHandler`. */
export interface ClusterCoordinatorDeps {
  readonly cluster: ClusterOptions;
  readonly store: TaskStore;
  /** The runs executing in this process: their leases are renewed, signals reach them; only read here. */
  readonly runs: RunRegistry;
  readonly executor: AgentExecutor;
  readonly cancelHookTimeoutMs: number;
  readonly logger: Logger;
  /** A run with no agent over a stored task, through which an abandoned task is failed. */
  readonly idleRun: (stored: StoredTask) => TaskRun;
  /** With a run queue: true while it holds an entry for the task, whose recovery is then the queue's (resume or fail). */
  readonly queued?: (stored: StoredTask) => Promise<boolean>;
}

/**
 * The part of durable mode ({@link ClusterOptions}) that happens beside the operations:
 * renewing the leases of the runs this instance executes, sweeping tasks whose instance
 * stopped, and stopping a run when another instance canceled or took over its task. The
 * `RequestHandler` makes one when `cluster` is set, and stops it on shutdown.
 * @internal
 */
export class ClusterCoordinator {
  /** This instance's lease, written with every save of a task it executes. */
  readonly lease: TaskLease;
  private readonly timers: ReturnType<typeof setInterval>[] = [];
  private unsubscribeSignals: (() => void) | undefined;
  private renewing = false;
  private sweeping: Promise<number> | undefined;
  private stopped = false;

  constructor(private readonly deps: ClusterCoordinatorDeps) {
    const { cluster, store } = deps;
    const leaseMs = cluster.leaseMs ?? DEFAULT_LEASE_MS;
    this.lease = { owner: cluster.instanceId, ttlMs: leaseMs };
    this.unsubscribeSignals = cluster.signals?.subscribe((signal) => this.onSignal(signal));
    if (store.renewLeases) this.every(Math.max(10, Math.floor(leaseMs / 3)), () => this.renewLeases());
    if (store.abandoned) this.every(cluster.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS, () => this.recoverAbandoned(false));
  }

  /** Stops the timers and the signal subscription; later sweeps do nothing. */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    this.unsubscribeSignals?.();
    this.unsubscribeSignals = undefined;
  }

  /** Tells the other instances a task was canceled here, so the one executing it stops. */
  announceCancel(tenant: string, taskId: string): void {
    const signals = this.deps.cluster.signals;
    if (signals)
      void signals
        .publish({ kind: 'canceled', tenant, taskId, origin: this.lease.owner })
        .catch((error: unknown) => this.deps.logger.warn({ taskId, err: error }, 'publishing a cancel signal failed'));
  }

  /**
   * Asks the instance executing a task to cancel it through its own run (see
   * {@link TaskSignal} `cancel-requested`). Resolves false when there is no signal channel or
   * the request could not be sent: the caller then writes the cancel to the store itself.
   */
  async requestCancel(tenant: string, taskId: string): Promise<boolean> {
    const signals = this.deps.cluster.signals;
    if (!signals) return false;
    try {
      await signals.publish({ kind: 'cancel-requested', tenant, taskId, origin: this.lease.owner });
      return true;
    } catch (error) {
      this.deps.logger.warn({ taskId, err: error }, 'publishing a cancel request failed');
      return false;
    }
  }

  /** See `RequestHandler.recoverAbandoned`; concurrent calls share one sweep. */
  recoverAbandoned(includeOwn: boolean): Promise<number> {
    if (this.sweeping) return this.sweeping;
    this.sweeping = this.sweep(includeOwn).finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private every(ms: number, job: () => Promise<unknown>): void {
    const timer = setInterval(() => void job().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'background task failed')), ms);
    // Never keep a process alive for housekeeping.
    (timer as { unref?: () => void }).unref?.();
    this.timers.push(timer);
  }

  private async sweep(includeOwn: boolean): Promise<number> {
    const { store, runs, logger } = this.deps;
    if (!store.abandoned || this.stopped) return 0;
    const limit = 100;
    let failed = 0;
    // Bounded: a few batches per pass; the next pass picks up the rest.
    for (let batch = 0; batch < 10; batch++) {
      const found = await store.abandoned({ owner: includeOwn ? this.lease.owner : undefined, limit });
      let progressed = false;
      for (const stored of found) {
        if (runs.find(stored.tenant, stored.task.id)) continue;
        if (this.deps.queued && (await this.deps.queued(stored))) continue;
        const state = stored.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
        try {
          if (!isSettled(state)) {
            const run = this.deps.idleRun(stored);
            try {
              if (await run.abort(ABANDONED_TASK_MESSAGE)) {
                failed++;
                progressed = true;
                logger.warn({ taskId: stored.task.id, tenant: stored.tenant }, 'failed a task whose instance stopped');
              }
            } finally {
              run.finish();
            }
          } else {
            // Interrupted or terminal with a leftover lease: just let the lease go.
            await store.save(stored, stored.version);
            progressed = true;
          }
        } catch (error) {
          if (!isVersionConflict(error)) throw error;
        }
      }
      if (found.length < limit || !progressed) break;
    }
    return failed;
  }

  /** Renews this instance's leases; a run whose lease is gone was taken over and stops. */
  private async renewLeases(): Promise<void> {
    const { store, runs } = this.deps;
    if (!store.renewLeases || this.renewing) return;
    const held = runs.active().filter((run) => run.holdsLease);
    if (held.length === 0) return;
    this.renewing = true;
    try {
      const lost = await store.renewLeases(
        this.lease.owner,
        held.map((run) => ({ tenant: run.tenant, taskId: run.taskId })),
        this.lease.ttlMs,
      );
      for (const ref of lost) {
        const run = runs.find(ref.tenant, ref.taskId);
        if (run?.holdsLease) void run.takenOver(this.deps.executor, this.deps.cancelHookTimeoutMs, 'The task was taken over by another instance');
      }
    } finally {
      this.renewing = false;
    }
  }

  private onSignal(signal: TaskSignal): void {
    if (signal.origin === this.lease.owner) return;
    const run = this.deps.runs.find(signal.tenant, signal.taskId);
    if (!run) return;
    const { executor, cancelHookTimeoutMs, logger } = this.deps;
    if (signal.kind === 'canceled') {
      void run.takenOver(executor, cancelHookTimeoutMs, 'Task canceled');
      return;
    }
    // cancel-requested: this run is the task's writer, so its cancel cannot lose a race to it.
    // The requester reads the outcome from the store and the event log; a task that ended
    // first answers TaskNotCancelable there, so a refusal here is only noted.
    run.cancel(executor, cancelHookTimeoutMs).then(
      () => logger.info({ taskId: signal.taskId, by: signal.origin }, 'canceled a task at the request of another instance'),
      (error: unknown) => logger.debug({ taskId: signal.taskId, err: error }, 'a cancel requested by another instance did not apply'),
    );
  }
}
