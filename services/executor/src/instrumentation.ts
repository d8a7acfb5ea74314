import { combineObservers, type CallObserver, type TaskStore } from '@a2a-polyglot/core';
import type { A2AMetrics } from '@a2a-polyglot/metrics';
import type { A2ATracing } from '@a2a-polyglot/tracing';

/** The service's metrics, and its traces when they are on (see {@link startTelemetry}). */
export interface ServiceInstrumentation {
  readonly metrics: A2AMetrics;
  /** Undefined when traces are off: then no span code runs on any request. */
  readonly tracing: A2ATracing | undefined;
}

/**
 * What one RequestHandler gets from the service's instrumentation: one observer reporting to
 * metrics and traces, and `store` timed and traced. One function, so the single-agent and the
 * several-agents wiring instrument handlers the same way.
 */
export function instrumentHandler(instrumentation: ServiceInstrumentation, store: TaskStore): { observer: CallObserver; taskStore: TaskStore } {
  const { metrics, tracing } = instrumentation;
  const timed = metrics.taskStore(store);
  return {
    observer: combineObservers(metrics.observer, tracing?.observer)!,
    taskStore: tracing ? tracing.taskStore(timed) : timed,
  };
}
