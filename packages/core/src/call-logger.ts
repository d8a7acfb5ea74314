import { isSpanContextValid, trace } from '@opentelemetry/api';
import type { CallContext } from './call-context.js';
import { lazyChild } from './lazy-logger.js';
import { silentLogger } from './logger.js';
import type { OperationName } from './operation-types.js';
import { requestIds } from './request-ids.js';

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
  ctx.logger = lazyChild(logger, fields);
}
