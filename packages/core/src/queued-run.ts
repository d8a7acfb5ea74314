/**
 * A worker's run of one entry it claimed from the run queue: the task the receiving instance
 * stored is loaded, and either executed (first claim), resumed (a retryable agent whose worker
 * stopped), failed visibly (the same, not retryable), or left alone (already ended). A run of
 * a retryable agent that this worker's shutdown interrupts is handed back to the queue.
 * @internal
 */
import { TaskState } from '@a2a-polyglot/model';
import type { AgentExecutor } from './agent-executor.js';
import { ABANDONED_TASK_MESSAGE } from './cluster-coordinator.js';
import { taskLogKey, type EventLog, type LoggedEvent } from './event-log.js';
import { lazyChild } from './lazy-logger.js';
import type { Logger } from './logger.js';
import type { RunRegistry } from './run-registry.js';
import { RESUMED_TASK_MESSAGE, type ClaimedRun, type ClaimEnd } from './run-queue.js';
import { logTaskEnd } from './task-end-log.js';
import { TaskRun, type RunDeps } from './task-run.js';
import { isInterrupted, isTerminal } from './task-state.js';
import { isVersionConflict, type StoredTask, type TaskStore } from './task-store.js';

/** What {@link executeClaimed} works with, all owned by the `RequestHandler`. */
export interface ClaimedRunDeps {
  readonly agentName: string;
  readonly executor: AgentExecutor;
  readonly store: TaskStore;
  readonly log: EventLog;
  readonly logger: Logger;
  readonly runs: RunRegistry;
  /** `QueueOptions.retryable`: a run whose worker stopped is resumed rather than failed. */
  readonly retryable: boolean;
  readonly runDeps: () => RunDeps;
  /** A run with no agent over a stored task, through which a task is failed. */
  readonly idleRun: (stored: StoredTask) => TaskRun;
  /**
   * The runs of claimed entries executing here now, when the agent is retryable: what a
   * shutdown hands back to the queue ({@link TaskRun.handBack}) instead of failing.
   */
  readonly retryableRuns: Set<TaskRun>;
}

/**
 * Runs a claimed entry to its end and says what becomes of the entry: `ack` when it is done;
 * `keep` when the task is still leased by another instance (the worker that stopped, until its
 * lease runs out), so the entry is left to its own lease and claimed again later; `release`
 * when this instance's shutdown handed the run back (retryable agents).
 */
export async function executeClaimed(deps: ClaimedRunDeps, claimed: ClaimedRun): Promise<ClaimEnd> {
  const job = claimed.run;
  const stored = await deps.store.get(job.tenant, job.taskId);
  if (!stored) return 'ack';
  const state = stored.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  // Canceled while queued, or ended by an earlier claim that lost only its ack.
  if (isTerminal(state) || (isInterrupted(state) && stored.version !== job.version)) return 'ack';
  if (deps.runs.find(job.tenant, job.taskId)) return 'keep';
  const resumed = claimed.attempt > 1;
  const logger = lazyChild(deps.logger, { taskId: job.taskId });
  try {
    if (resumed && !deps.retryable) return await failAbandoned(deps, stored, logger);
    return await runClaimed(deps, claimed, stored, logger);
  } catch (error) {
    if (isVersionConflict(error)) return 'keep';
    throw error;
  }
}

/** Not retryable: the task ends FAILED with the reason, as the lease sweep fails it without a queue. */
async function failAbandoned(deps: ClaimedRunDeps, stored: StoredTask, logger: Logger): Promise<ClaimEnd> {
  const run = deps.idleRun(stored);
  try {
    if (await run.abort(ABANDONED_TASK_MESSAGE)) {
      logger.warn({ tenant: stored.tenant }, 'failed a queued task whose worker stopped (the agent is not retryable)');
      return 'ack';
    }
    if (run.failure) throw run.failure;
    return 'ack';
  } finally {
    run.finish();
  }
}

async function runClaimed(deps: ClaimedRunDeps, claimed: ClaimedRun, stored: StoredTask, logger: Logger): Promise<ClaimEnd> {
  const job = claimed.run;
  const resumed = claimed.attempt > 1;
  if (resumed) await fillLog(deps.log, stored);
  const run = new TaskRun(
    { ...deps.runDeps(), logger },
    {
      tenant: job.tenant,
      owner: job.owner,
      principal: job.principal,
      taskId: job.taskId,
      contextId: stored.task.contextId,
      message: job.message,
      existing: { task: stored.task, version: stored.version },
      createdFor: !job.followUp,
      configuration: job.configuration,
      metadata: job.metadata,
      extensions: job.extensions,
      streaming: job.streaming,
    },
  );
  try {
    await run.claimQueued(resumed ? RESUMED_TASK_MESSAGE : undefined);
  } catch (error) {
    run.finish();
    throw error;
  }
  if (resumed) logger.warn({ attempt: claimed.attempt }, 'resumed a queued task whose worker stopped');
  deps.runs.register(run);
  if (deps.retryable) deps.retryableRuns.add(run);
  const startedAt = performance.now();
  try {
    await run.execute(deps.executor);
  } finally {
    deps.runs.unregister(run);
    deps.retryableRuns.delete(run);
    if (!run.handedBack) logTaskEnd(logger, deps.agentName, run.state, startedAt);
  }
  return run.handedBack ? 'release' : 'ack';
}

/** Most missing numbers {@link fillLog} writes; a longer hole (the log expired) gets one snapshot at the stored version. */
const MAX_FILL = 64;

/**
 * Before a resumed run writes: the stopped worker may have stored events it never logged (it
 * died between the save and the append, see `LeasedPersistence`), which would leave a hole in
 * the log right before the resumed run's first event. Each missing number gets the task as
 * stored (it folds in what those events did), so a follower reads one unbroken numbering and
 * ends up with the stored task. A zombie's late append of the same numbers is dropped by the
 * log (numbers not above the last one held).
 */
async function fillLog(log: EventLog, stored: StoredTask): Promise<void> {
  const key = taskLogKey(stored.tenant, stored.task.id);
  const last = await log.lastSeq(key);
  if (last >= stored.version) return;
  const events: LoggedEvent[] = [];
  for (let seq = Math.max(last + 1, stored.version - MAX_FILL + 1); seq <= stored.version; seq++)
    events.push({ seq, event: { payload: { $case: 'task', value: stored.task } } });
  if (log.appendMany) await log.appendMany(key, events);
  else for (const logged of events) await log.append(key, logged.event, logged.seq);
}
