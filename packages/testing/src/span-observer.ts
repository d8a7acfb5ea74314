import { context, TraceFlags, trace } from '@opentelemetry/api';

/**
 * A call observer (structurally `CallObserver` of `@a2a-polyglot/core`) that runs every
 * operation inside a span with the given ids, as the tracing observer does: lets a binding's
 * log tests check that each line carries the active `traceId` without a tracer SDK. Needs a
 * context manager set globally (the test's `beforeAll`), else the span is not propagated.
 */
export function fixedSpanObserver(
  traceId: string,
  spanId: string,
): {
  operationStarted(): { run<T>(call: () => T): T; done(): void };
} {
  const span = trace.wrapSpanContext({ traceId, spanId, traceFlags: TraceFlags.SAMPLED });
  return {
    operationStarted: () => ({
      run: (call) => context.with(trace.setSpan(context.active(), span), call),
      done: () => undefined,
    }),
  };
}
