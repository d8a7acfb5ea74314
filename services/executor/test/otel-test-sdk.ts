/**
 * An in-memory OpenTelemetry SDK for tests: spans go to an InMemorySpanExporter, context
 * follows async work through AsyncLocalStorage, W3C trace context is the propagator. Jest
 * gives each test file its own globals, so registering here touches no other file.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** The registered test SDK. */
export interface TestSdk {
  readonly exporter: InMemorySpanExporter;
  /** Ended spans of one trace. */
  spansOf(traceId: string): ReadableSpan[];
  /** Unregisters everything. */
  shutdown(): Promise<void>;
}

/** Registers the in-memory SDK globally (tracer provider, context manager, propagator). */
export function registerTestSdk(): TestSdk {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return {
    exporter,
    spansOf: (traceId) => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId),
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** A span tree as names, children sorted: compares the shape of traces whatever the ids and timing. */
export interface SpanShape {
  readonly name: string;
  readonly children: SpanShape[];
}

/** The tree under `root` among `spans`; `keep` drops subtrees (e.g. store calls whose count depends on timing). */
export function shapeOf(root: ReadableSpan, spans: readonly ReadableSpan[], keep: (span: ReadableSpan) => boolean = () => true): SpanShape {
  const children = spans
    .filter((s) => s.parentSpanContext?.spanId === root.spanContext().spanId && keep(s))
    .map((s) => shapeOf(s, spans, keep))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return { name: root.name, children };
}
