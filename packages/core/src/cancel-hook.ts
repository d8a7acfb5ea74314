/**
 * Calling an agent's cancel hook, bounded and failure-proof, and the error a cancel of a
 * finished task answers: the pieces of CancelTask that are about the agent, not the task's
 * write path.
 * @internal
 */
import { A2AError } from './a2a-error.js';
import type { AgentExecutor, ExecutionContext } from './agent-executor.js';
import { A2AErrorCode } from './error-code.js';
import type { Logger } from './logger.js';
import { isThenable } from './serial-queue.js';

/**
 * Calls the agent's cancel hook, if any, and never throws (a failing hook is logged). Only a
 * hook that returns a promise is waited for (at most `hookTimeoutMs`): a synchronous hook
 * adds no turn, so the agent's execute() cannot report in between, and the CANCELED status
 * follows the abort exactly as when the agent has no hook.
 */
export function callCancelHook(executor: AgentExecutor | undefined, ctx: ExecutionContext, hookTimeoutMs: number, logger: Logger): Promise<void> | undefined {
  if (!executor?.cancel) return undefined;
  const failed = (error: unknown) => logger.warn({ err: error }, 'agent cancel hook failed');
  let result: unknown;
  try {
    result = executor.cancel(ctx);
  } catch (error) {
    failed(error);
    return undefined;
  }
  return isThenable(result) ? withTimeout(Promise.resolve(result), hookTimeoutMs).then(() => undefined, failed) : undefined;
}

/** TaskNotCancelable for a task already in a terminal state. */
export function notCancelable(taskId: string): A2AError {
  return new A2AError(A2AErrorCode.TaskNotCancelable, `Task ${taskId} is in a terminal state and cannot be canceled`, { metadata: { taskId } });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
