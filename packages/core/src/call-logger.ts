import { isSpanContextValid, trace } from '@opentelemetry/api';
import type { BindingName, CallContext } from './call-context.js';
import { silentLogger, type Logger } from './logger.js';
import type { OperationName } from './operations.js';
import { requestIds } from './request-ids.js';

/** The header a caller or a proxy names its request with; kept as the log lines' `reqId`. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Longest `X-Request-Id` taken as is; a longer or odd one is replaced (it lands in every line). */
const MAX_REQUEST_ID_LENGTH = 128;
const REQUEST_ID_SHAPE = /^[\w.:/+=@-]+$/;

/**
 * The logger of one incoming call: the binding's logger with the call's `binding` and
 * `reqId` (the caller's `X-Request-Id` when it sent a sane one, else a fresh UUID), so every
 * line about the call can be found together. The bindings build it when they build the
 * call's context; the core adds `operation`, `traceId` and `taskId` ({@link bindOperationLogger}).
 * Undefined for a silent binding logger: the call then has no logger of its own and the core
 * logs to its own (a handler given a logger behind a binding given none still logs).
 */
export function requestLogger(logger: Logger, binding: BindingName, header: (name: string) => string | undefined): Logger | undefined {
  if (logger === silentLogger) return undefined;
  const sent = header(REQUEST_ID_HEADER);
  const reqId = sent && sent.length <= MAX_REQUEST_ID_LENGTH && REQUEST_ID_SHAPE.test(sent) ? sent : globalThis.crypto.randomUUID();
  return logger.child({ binding, reqId });
}

/**
 * Narrows the call's logger to one operation: adds `operation`, the `traceId` of the active
 * OpenTelemetry span (the operation's own span, as the OPERATIONS table calls this inside
 * it; absent without tracing) and the `taskId` the request names. Called once per operation
 * by the OPERATIONS table, so every binding's lines carry the same fields; the binding's own
 * failure lines, written after the call, read the narrowed `ctx.logger`.
 */
export function bindOperationLogger(ctx: CallContext, operation: OperationName, request: unknown): void {
  const logger = ctx.logger;
  if (logger === undefined || logger === silentLogger) return;
  const fields: Record<string, unknown> = { operation };
  const span = trace.getActiveSpan()?.spanContext();
  if (span && isSpanContextValid(span)) fields.traceId = span.traceId;
  const { taskId } = requestIds(operation, request);
  if (taskId !== undefined) fields.taskId = taskId;
  ctx.logger = logger.child(fields);
}
