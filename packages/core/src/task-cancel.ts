import { TaskState, type CancelTaskRequest, type Task } from '@a2a-polyglot/model';
import { A2AError } from './a2a-error.js';
import type { AgentExecutor } from './agent-executor.js';
import type { Principal } from './auth.js';
import type { ClusterCoordinator } from './cluster-coordinator.js';
import { A2AErrorCode } from './error-code.js';
import { requireId, runKey, type Caller } from './request-handler-helpers.js';
import type { TaskQueries } from './task-queries.js';
import { TaskRun, type RunDeps } from './task-run.js';
import { isTerminal } from './task-state.js';
import { isVersionConflict, type StoredTask } from './task-store.js';

/** Attempts of a cancel that keeps losing races against the running task's writes. */
const CANCEL_ATTEMPTS = 8;

/** What a {@link TaskCanceler} works with, all owned by the `RequestHandler`. */
export interface TaskCancelerDeps {
  /** The handler's runs executing in this process, by {@link runKey}; only read here. */
  readonly runs: ReadonlyMap<string, TaskRun>;
  /** Keys of tasks whose follow-up or cancel is being set up, shared with the handler's follow-ups. */
  readonly reserved: Set<string>;
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
        return await active.cancel(this.deps.executor, this.deps.cancelHookTimeoutMs);
      } catch (error) {
        // Lost a race with another instance's write: cancel from the store below.
        if (!isVersionConflict(error)) throw error;
      }
    }
    if (this.deps.reserved.has(key)) throw new A2AError(A2AErrorCode.TaskNotCancelable, `Task ${request.id} is changing state; retry`);
    this.deps.reserved.add(key);
    try {
      for (let attempt = 1; ; attempt++) {
        const stored = await this.deps.tasks.loadStored(caller, request.id);
        const state = stored.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
        if (isTerminal(state)) {
          throw new A2AError(A2AErrorCode.TaskNotCancelable, `Task ${request.id} is ${TaskState[state]} and cannot be canceled`, {
            metadata: { taskId: request.id },
          });
        }
        const idle = idleRun(this.deps.runDeps(), stored, caller.principal, request.metadata, caller.extensions);
        try {
          // The agent may hold upstream work for an interrupted task (a run awaiting approval).
          const task = await idle.cancel(this.deps.executor, this.deps.cancelHookTimeoutMs);
          // Whichever instance runs the task stops it (its next write would be refused anyway).
          this.deps.cluster?.announceCancel(caller.tenant, request.id);
          return task;
        } catch (error) {
          // The running task wrote in between: reload and try again.
          if (!isVersionConflict(error) || attempt >= CANCEL_ATTEMPTS) throw error;
        } finally {
          idle.finish();
        }
      }
    } finally {
      this.deps.reserved.delete(key);
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
    { ...deps, logger: deps.logger.child({ taskId: stored.task.id }) },
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
