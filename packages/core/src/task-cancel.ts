import { TaskState, type CancelTaskRequest, type Task } from '@a2a-polyglot/model';
import { A2AError } from './a2a-error.js';
import type { AgentExecutor } from './agent-executor.js';
import type { Principal } from './auth.js';
import { awaitTaskEnd } from './await-task-end.js';
import type { ClusterCoordinator } from './cluster-coordinator.js';
import { A2AErrorCode } from './error-code.js';
import { requireId, runKey, type Caller } from './request-handler-helpers.js';
import { lazyChild } from './lazy-logger.js';
import type { RunRegistry } from './run-registry.js';
import type { TaskQueries } from './task-queries.js';
import { taskView } from './task-events.js';
import { answerTask } from './task-generation.js';
import { TaskRun, type RunDeps } from './task-run.js';
import { isTerminal } from './task-state.js';
import { isVersionConflict, type StoredTask } from './task-store.js';

/** Attempts of a cancel that keeps losing races against the running task's writes. */
const CANCEL_ATTEMPTS = 8;

/**
 * How long, beyond the cancel hook's own timeout, a cancel waits for the instance it asked to
 * cancel a task (see `TaskCanceler.cancelStored`) before writing the cancel itself.
 */
const OWNER_CANCEL_GRACE_MS = 3000;

/** What a {@link TaskCanceler} works with, all owned by the `RequestHandler`. */
export interface TaskCancelerDeps {
  /** The runs executing in this process; a cancel of a stored task reserves it there. */
  readonly runs: RunRegistry;
  readonly tasks: TaskQueries;
  readonly executor: AgentExecutor;
  readonly cancelHookTimeoutMs: number;
  /** Durable mode only: tells the instance executing the task to stop. */
  readonly cluster: ClusterCoordinator | undefined;
  readonly runDeps: () => RunDeps;
}

/**
 * CancelTask, wherever the task is: the run executing it in this process, or the stored task
 * (idle, or executed by another instance), retried while concurrent writes win the race.
 * Apart from the `RequestHandler` because, unlike the other operations, it has to
 * arbitrate between writers; the handler runs the preamble and hands over the caller.
 * @internal
 */
export class TaskCanceler {
  constructor(private readonly deps: TaskCancelerDeps) {}

  /** CancelTask: best effort, returns the task as CANCELED; terminal ⇒ TaskNotCancelable. */
  async cancel(caller: Caller, request: CancelTaskRequest): Promise<Task> {
    requireId(request.id, 'id');
    // Ownership before any rule that depends on the task: someone else's task answers
    // TaskNotFound, exactly like an unknown id, never "changing state" or "not cancelable".
    await this.deps.tasks.visible(caller, request.id);
    const key = runKey(caller.tenant, request.id);
    const active = this.deps.runs.get(key);
    if (active) {
      try {
        const task = await active.cancel(this.deps.executor, this.deps.cancelHookTimeoutMs);
        return answerTask(caller, task, active.lastSeq);
      } catch (error) {
        // Lost a race with another instance's write: cancel from the store below.
        if (!isVersionConflict(error)) throw error;
      }
    }
    const release = this.deps.runs.reserve(key, () => new A2AError(A2AErrorCode.TaskNotCancelable, `Task ${request.id} is changing state; retry`));
    try {
      return await this.cancelStored(caller, request);
    } finally {
      release();
    }
  }

  /**
   * Cancels the stored task: an idle one (or one whose instance died) by writing CANCELED here.
   * A write that loses the version race means an instance is writing the task right now (only a
   * live writer moves its version), and one that writes faster than a store round trip would win
   * every retry: then the instance executing it is asked, once, to cancel through its own run,
   * and this waits (bounded) for the task to end. Past that deadline (the request was lost, the
   * writer was no run), writing here is retried as before.
   */
  private async cancelStored(caller: Caller, request: CancelTaskRequest): Promise<Task> {
    const cluster = this.deps.cluster;
    let requested = false;
    /** The task as the wait for the executing instance left it, read instead of loading again. */
    let awaited: StoredTask | undefined;
    for (let attempt = 1; ; attempt++) {
      const stored = awaited ?? (await this.deps.tasks.loadStored(caller, request.id));
      awaited = undefined;
      const state = stored.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
      if (isTerminal(state)) {
        // The executing instance canceled it at this cancel's request.
        if (requested && state === TaskState.TASK_STATE_CANCELED) return answerTask(caller, taskView(stored.task), stored.version);
        throw new A2AError(A2AErrorCode.TaskNotCancelable, `Task ${request.id} is ${TaskState[state]} and cannot be canceled`, {
          metadata: { taskId: request.id },
        });
      }
      try {
        return await this.cancelIdle(caller, request, stored);
      } catch (error) {
        if (!isVersionConflict(error)) throw error;
        if (!requested && cluster) {
          requested = await cluster.requestCancel(caller.tenant, request.id);
          if (requested) {
            awaited = await awaitTaskEnd({
              log: this.deps.runDeps().log,
              tenant: caller.tenant,
              taskId: request.id,
              afterSeq: stored.version,
              load: () => this.deps.tasks.loadStored(caller, request.id),
              timeoutMs: this.deps.cancelHookTimeoutMs + OWNER_CANCEL_GRACE_MS,
            });
            continue;
          }
        }
        // The running task wrote in between: reload and try again.
        if (attempt >= CANCEL_ATTEMPTS) throw error;
      }
    }
  }

  /** Writes CANCELED over the stored task through an idle run; a version conflict means it lost a race. */
  private async cancelIdle(caller: Caller, request: CancelTaskRequest, stored: StoredTask): Promise<Task> {
    const idle = idleRun(this.deps.runDeps(), stored, caller.principal, request.metadata, caller.extensions);
    try {
      // The agent may hold upstream work for an interrupted task (a run awaiting approval).
      const task = await idle.cancel(this.deps.executor, this.deps.cancelHookTimeoutMs);
      // Whichever instance runs the task stops it (its next write would be refused anyway).
      this.deps.cluster?.announceCancel(caller.tenant, request.id);
      return answerTask(caller, task, idle.lastSeq);
    } finally {
      idle.finish();
    }
  }
}

/** A run with no agent over a stored task: cancel of an idle task, failing an abandoned one. */
export function idleRun(
  deps: RunDeps,
  stored: StoredTask,
  principal: Principal | undefined,
  metadata: Record<string, unknown> | undefined,
  extensions: readonly string[],
): TaskRun {
  return new TaskRun(
    { ...deps, logger: lazyChild(deps.logger, { taskId: stored.task.id }) },
    {
      tenant: stored.tenant,
      owner: stored.owner,
      principal,
      taskId: stored.task.id,
      contextId: stored.task.contextId,
      message: stored.task.history[stored.task.history.length - 1] ?? ({} as never),
      existing: { task: stored.task, version: stored.version },
      configuration: undefined,
      metadata,
      extensions,
      streaming: false,
    },
  );
}
