import { A2AErrorCode } from './error-code.js';
import type { A2AError } from './a2a-error.js';
import { logsAt } from './lazy-logger.js';
import type { Logger } from './logger.js';

/**
 * Whether a failure is ours to fix rather than the caller's: a bug (Internal), an agent that
 * broke the protocol (InvalidAgentResponse), or a dependency that failed (Unavailable carrying
 * the backend's error as its cause). Unavailable without a cause is a refusal we chose
 * (shutting down, a concurrent write) and, like every client mistake, not a fault. One rule,
 * so every binding and stream path logs the same failure at the same level.
 */
export function isServerFault(error: A2AError): boolean {
  if (error.code === A2AErrorCode.Internal || error.code === A2AErrorCode.InvalidAgentResponse) return true;
  return error.code === A2AErrorCode.Unavailable && error.cause !== undefined;
}

/**
 * Logs a failed call or stream at the level it deserves: server faults as errors with their
 * cause (the client only saw the generic message), everything else at debug. `what` names
 * the call (`JSON-RPC call`, `REST call`, `WebSocket stream`, ...); `fields` adds context.
 */
export function logFailure(logger: Logger, error: A2AError, what: string, fields: Record<string, unknown> = {}): void {
  if (isServerFault(error)) logger.error({ ...fields, code: error.code, message: error.message, err: error.cause ?? error }, `${what} failed`);
  // A refusal is a debug line: at info and above, nothing of it is built.
  else if (logsAt(logger, 'debug')) logger.debug({ ...fields, code: error.code, message: error.message }, `${what} rejected`);
}
