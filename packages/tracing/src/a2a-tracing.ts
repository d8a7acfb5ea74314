import type { CallObserver, TaskStore } from '@a2a-polyglot/core';
import { trace, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { tracedTaskStore } from './traced-task-store.js';
import { tracingObserver } from './tracing-observer.js';

/** Options of {@link A2ATracing}. */
export interface A2ATracingOptions {
  /** Where spans go. Default: the globally registered provider (a no-op until an SDK registers one). */
  readonly tracerProvider?: TracerProvider;
}

/** The instrumentation scope name of every span this package makes. */
export const TRACER_NAME = '@a2a-polyglot/tracing';

/**
 * OpenTelemetry traces of an A2A service, the twin of `A2AMetrics`: give {@link observer} to
 * every RequestHandler (with `combineObservers` to keep metrics too) and wrap task stores
 * with {@link taskStore}. It depends on `@opentelemetry/api` only: the application chooses
 * the SDK and exporter, and without one every span is a no-op.
 */
export class A2ATracing {
  readonly tracer: Tracer;
  /** Reports every operation, task run and state change as spans and events (RequestHandlerOptions.observer). */
  readonly observer: CallObserver;

  constructor(options: A2ATracingOptions = {}) {
    this.tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(TRACER_NAME);
    this.observer = tracingObserver(this.tracer);
  }

  /** `store`, with each call in a child span of the operation that made it. */
  taskStore(store: TaskStore): TaskStore {
    return tracedTaskStore(store, this.tracer);
  }
}
