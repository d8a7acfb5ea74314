import type { CallContext } from '@a2a-polyglot/core';
import { context, propagation, type Context, type TextMapGetter } from '@opentelemetry/api';

/** Reads propagation fields (`traceparent`, `tracestate`, `baggage`) through CallContext.header. */
const callContextGetter: TextMapGetter<CallContext> = {
  get: (ctx, key) => ctx.header(key),
  // CallContext cannot list its headers; the W3C propagators only ever ask for named fields.
  keys: () => [],
};

/**
 * The caller's trace context, from the call's headers. Every binding hands the core its
 * headers as `CallContext.header` — HTTP headers (JSON-RPC, REST), gRPC metadata, the
 * WebSocket handshake and each frame's `serviceParams` — so this one function continues
 * traces on every binding. Uses the globally registered propagator (W3C trace context with
 * the SDK's defaults); without a traceparent the active context stays the parent (an HTTP
 * server span of an auto-instrumentation, or none).
 */
export function callerContext(ctx: CallContext): Context {
  return propagation.extract(context.active(), ctx, callContextGetter);
}
