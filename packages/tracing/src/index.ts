/**
 * @a2a-polyglot/tracing — OpenTelemetry traces for an A2A service: a span per A2A operation
 * on every binding (same name and attributes on JSON-RPC, REST, gRPC and WebSocket), a span
 * per agent run with task state events, task store spans, and the caller's W3C trace context
 * continued. The core reports through its CallObserver seam; this package turns the reports
 * into spans with `@opentelemetry/api` (no-op without an SDK).
 */
export { A2ATracing, TRACER_NAME, type A2ATracingOptions } from './a2a-tracing.js';
export { A2A_ATTRIBUTES, operationSpanName, requestIds, resultIds, storeSpanName, TASK_RUN_SPAN, TASK_STATE_EVENT, type TaskIds } from './attributes.js';
export { callerContext } from './trace-context.js';
export { tracedTaskStore } from './traced-task-store.js';
export { tracingObserver } from './tracing-observer.js';
