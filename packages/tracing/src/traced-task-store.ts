import { wrapTaskStore, type TaskStore } from '@a2a-polyglot/core';
import { context, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { A2A_ATTRIBUTES, storeSpanName } from './attributes.js';

/**
 * `store` with each request-path call (get, save, list, delete) in a span of its own
 * (`a2a.store.get`, …), child of the operation or run that made it, so a slow or failing
 * store shows up under the call it slowed. Calls made outside any span (background sweeps)
 * are not traced: a root span per timer tick would bury the traces that matter. Core's
 * {@link wrapTaskStore} — the decorator metrics' timings use too.
 */
export function tracedTaskStore(store: TaskStore, tracer: Tracer): TaskStore {
  return wrapTaskStore(store, (operation, call) => {
    if (!trace.getActiveSpan()) return call();
    return tracer.startActiveSpan(
      storeSpanName(operation),
      { kind: SpanKind.INTERNAL, attributes: { [A2A_ATTRIBUTES.storeOperation]: operation } },
      context.active(),
      async (span) => {
        try {
          return await call();
        } catch (error) {
          span.recordException(error instanceof Error ? error : String(error));
          span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
          throw error;
        } finally {
          span.end();
        }
      },
    );
  });
}
