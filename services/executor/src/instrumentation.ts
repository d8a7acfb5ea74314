import { combineObservers, type CallObserver, type EventLog, type TaskStore } from '@a2a-polyglot/core';
import { A2AMetrics } from '@a2a-polyglot/metrics';
import { A2ATracing } from '@a2a-polyglot/tracing';
import type { Telemetry } from './telemetry.js';

/** The service's metrics, and its traces when they are on (see {@link startTelemetry}). */
export interface ServiceInstrumentation {
  readonly metrics: A2AMetrics;
  /** Undefined when traces are off: then no span code runs on any request. */
  readonly tracing: A2ATracing | undefined;
}

/**
 * The service's metrics, plus traces when the SDK runs (`telemetry`) or the embedder asked
 * for them (`tracingRequested`, `StartExecutorOptions.tracing`, which wins when set).
 */
export function serviceInstrumentation(tracingRequested: boolean | undefined, telemetry: Telemetry | undefined): ServiceInstrumentation {
  return { metrics: new A2AMetrics(), tracing: (tracingRequested ?? telemetry !== undefined) ? new A2ATracing() : undefined };
}

/**
 * What one RequestHandler gets from the service's instrumentation: one observer reporting to
 * metrics (labelled with `agent`: its id under `/agents/{id}`, the card name of a single agent)
 * and traces, `store` timed and traced, and `log` counted. One function, so every agent
 * (the single one, each of `agents`, each of the registry) is instrumented the same way.
 */
export function instrumentHandler(
  instrumentation: ServiceInstrumentation,
  agent: string,
  store: TaskStore,
  log: EventLog,
): { observer: CallObserver; taskStore: TaskStore; eventLog: EventLog } {
  const { metrics, tracing } = instrumentation;
  const timed = metrics.taskStore(store);
  const observer = metrics.observerFor(agent);
  return {
    // With metrics alone, combineObservers returns the metrics observer itself (never undefined here).
    observer: combineObservers(observer, tracing?.observer) ?? observer,
    taskStore: tracing ? tracing.taskStore(timed) : timed,
    eventLog: metrics.eventLog(log, agent),
  };
}
