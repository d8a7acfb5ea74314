import { hrTimeToMicroseconds, ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpGrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as OtlpHttpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ZipkinExporter } from '@opentelemetry/exporter-zipkin';
import { tracing } from '@opentelemetry/sdk-node';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The span processors of `OTEL_TRACES_EXPORTER` when it lists `console`, else undefined (the
 * SDK then builds them from the variables itself). The SDK's console exporter writes each span
 * as a multi-line object dump to stdout, in the middle of the service's JSON log lines; here
 * `console` is {@link StderrSpanExporter} instead: one JSON line per span, on stderr. The other
 * names are built as the SDK builds them (otlp in the protocol `OTEL_EXPORTER_OTLP_*PROTOCOL`
 * names, zipkin), each exporter reading its own variables; unknown names are skipped, as the
 * SDK skips them.
 */
export function consoleOnStderrProcessors(env: Env, stderr: Writable = process.stderr): tracing.SpanProcessor[] | undefined {
  const names = [
    ...new Set(
      (env.OTEL_TRACES_EXPORTER ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '' && s !== 'none' && s !== 'null'),
    ),
  ];
  if (!names.includes('console')) return undefined;
  const processors: tracing.SpanProcessor[] = [];
  for (const name of names) {
    if (name === 'console') processors.push(new tracing.SimpleSpanProcessor(new StderrSpanExporter(stderr)));
    else if (name === 'otlp') processors.push(new tracing.BatchSpanProcessor(otlpExporter(env)));
    else if (name === 'zipkin') processors.push(new tracing.BatchSpanProcessor(new ZipkinExporter()));
  }
  return processors;
}

/** The OTLP trace exporter of the protocol the variables name (the SDK's default: http/protobuf). */
function otlpExporter(env: Env): tracing.SpanExporter {
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  if (protocol === 'grpc') return new OtlpGrpcExporter();
  if (protocol === 'http/json') return new OtlpHttpJsonExporter();
  return new OtlpProtobufExporter();
}

/** Where {@link StderrSpanExporter} writes (process.stderr; a test passes its own). */
export interface Writable {
  write(chunk: string): unknown;
}

/**
 * The `console` traces exporter, on stderr and one JSON line per span (the fields of the SDK's
 * `ConsoleSpanExporter`). Hand-written because the SDK's own writes to stdout with no option
 * to change it, and stdout carries the service's JSON log lines.
 */
export class StderrSpanExporter implements tracing.SpanExporter {
  constructor(private readonly out: Writable = process.stderr) {}

  export(spans: tracing.ReadableSpan[], done: (result: ExportResult) => void): void {
    for (const span of spans) this.out.write(`${JSON.stringify(spanInfo(span))}\n`);
    done({ code: ExportResultCode.SUCCESS });
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

function spanInfo(span: tracing.ReadableSpan): Record<string, unknown> {
  const context = span.spanContext();
  return {
    name: span.name,
    traceId: context.traceId,
    id: context.spanId,
    parentId: span.parentSpanContext?.spanId,
    kind: span.kind,
    timestamp: hrTimeToMicroseconds(span.startTime),
    duration: hrTimeToMicroseconds(span.duration),
    attributes: span.attributes,
    status: span.status,
    events: span.events,
    links: span.links,
    resource: { attributes: span.resource.attributes },
    instrumentationScope: span.instrumentationScope,
  };
}
