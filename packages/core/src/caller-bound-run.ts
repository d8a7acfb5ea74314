/**
 * Background execution off ({@link RequestHandlerOptions.backgroundExecution} `false`), the
 * run mode OpenClaw.NET's A2A host uses ("DisallowBackground"): a task lives only as long as
 * the send that started it. The rule is here once; every binding only fires the call's
 * `CallContext.signal` when its client goes away (HTTP response closed early, gRPC call
 * cancelled or past its deadline, WebSocket closed or its stream canceled).
 * @internal
 */
import type { SendMessageRequest } from '@a2a-polyglot/model';
import { errors } from './a2a-error.js';
import type { Logger } from './logger.js';
import type { RequestHandlerOptions } from './request-handler-options.js';
import type { TaskRun } from './task-run.js';

/**
 * Refuses `configuration.returnImmediately` (v0.3 `blocking: false`) when tasks follow their
 * caller: a call that returns at once leaves nobody for the task to follow, so honouring it
 * would either cancel the task at once or run it in the background, which is what the
 * operator turned off.
 *
 * Why UnsupportedOperation and not InvalidParams: the request is well formed and valid per
 * the spec; it asks for an execution mode this agent does not offer, which is how the spec
 * answers every other optional feature an agent lacks (streaming, push, extended card). The
 * message names the member in both generations (v1.0 `returnImmediately`, v0.3 `blocking`):
 * the v0.3 codecs rename only InvalidParams field paths.
 */
export function refuseReturnImmediately(request: SendMessageRequest): void {
  if (request.configuration?.returnImmediately) {
    throw errors.unsupported(
      'This agent runs tasks only while their caller waits (background execution is off): non-blocking sends (configuration.returnImmediately; v0.3 configuration.blocking: false) are not supported; send a blocking request or use SendStreamingMessage',
    );
  }
}

/**
 * Cancels the run's task when the caller goes away before the run settles (terminal or
 * interrupted state). Once the run settled, the call has its answer and the task is left
 * alone: an input-required task waits for its follow-up as usual. `cancel` is the handler's
 * CancelTask path, so the agent's cancel hook runs and the task ends CANCELED exactly as
 * when a client cancels it.
 */
export function cancelWhenCallerLeaves(run: TaskRun, signal: AbortSignal | undefined, cancel: () => Promise<unknown>, logger: Logger): void {
  if (!signal || run.settled.settled) return;
  const onAbort = () => {
    if (run.settled.settled) return;
    logger.info({ taskId: run.taskId }, 'the caller went away; canceling its task (background execution is off)');
    void cancel().catch((error: unknown) => logger.debug({ taskId: run.taskId, err: error }, 'canceling the task of a departed caller failed'));
  };
  if (signal.aborted) {
    onAbort();
    return;
  }
  signal.addEventListener('abort', onAbort, { once: true });
  void run.settled.promise.then(() => signal.removeEventListener('abort', onAbort));
}

/** Default of {@link RequestHandlerOptions.backgroundExecution}: tasks outlive their call, as A2A intends. */
export const DEFAULT_BACKGROUND_EXECUTION: NonNullable<RequestHandlerOptions['backgroundExecution']> = true;
