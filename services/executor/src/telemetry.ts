import type { Logger } from '@a2a-polyglot/core';
import { diag, DiagLogLevel, type DiagLogger } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { consoleOnStderrProcessors } from './span-exporters.js';

/** The OpenTelemetry SDK of the process, when {@link startTelemetry} started one. */
export interface Telemetry {
  /** Exports the spans still buffered and stops the SDK (executor close). */
  shutdown(): Promise<void>;
}

/** The service name spans carry when neither OTEL_SERVICE_NAME nor OTEL_RESOURCE_ATTRIBUTES names one. */
export const DEFAULT_SERVICE_NAME = 'a2a-executor';

/**
 * The OpenTelemetry variables the executor itself reads (`--help` lists them, a test checks
 * the list against this directory's sources). The SDK reads the rest of the standard ones
 * (protocol, headers, sampler, propagators) once traces are on.
 */
export const OTEL_VARIABLES: Readonly<Record<string, string>> = {
  OTEL_EXPORTER_OTLP_ENDPOINT: 'OTLP collector URL; setting it turns traces on',
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'OTLP endpoint of traces only; also turns traces on',
  OTEL_TRACES_EXPORTER: 'traces exporter (otlp, console (one JSON line per span on stderr), zipkin); set, other than none, it turns traces on',
  OTEL_EXPORTER_OTLP_PROTOCOL: 'OTLP protocol: http/protobuf (default), http/json or grpc',
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'OTLP protocol of traces only',
  OTEL_SDK_DISABLED: 'true keeps the SDK off whatever else is set',
  OTEL_SERVICE_NAME: `service name of the spans (default ${DEFAULT_SERVICE_NAME})`,
  OTEL_RESOURCE_ATTRIBUTES: 'resource attributes of the spans (service.name=… names the service too)',
  OTEL_METRICS_EXPORTER: 'turns OpenTelemetry metrics on (off by default: metrics are Prometheus, GET /metrics)',
  OTEL_LOGS_EXPORTER: 'turns OpenTelemetry logs on (off by default)',
  OTEL_LOG_LEVEL: "the SDK's own log level, to the console (default: its warnings go to the service log)",
};

/**
 * True when the standard OpenTelemetry variables ask for traces: an OTLP endpoint
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) or a traces exporter
 * (`OTEL_TRACES_EXPORTER`, other than `none`), and the SDK is not disabled
 * (`OTEL_SDK_DISABLED=true`). Opt-in, so an executor without them runs no SDK at all.
 */
export function tracesWanted(env: Readonly<Record<string, string | undefined>>): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (exporters.length > 0) return !exporters.every((e) => e === 'none');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/**
 * Starts `@opentelemetry/sdk-node` for traces when {@link tracesWanted}, else returns
 * undefined. Everything else comes from the standard variables, read by the SDK itself
 * (exporter and protocol, endpoint and headers, sampler, propagators, resource). Metrics and
 * logs stay off unless `OTEL_METRICS_EXPORTER` / `OTEL_LOGS_EXPORTER` ask for them: the
 * service's metrics are Prometheus (`GET /metrics`), and the SDK's default would otherwise
 * push empty metric and log exports to the trace collector.
 *
 * The SDK reads `process.env`, so the variables are the process's (they are process-wide by
 * nature: one SDK, one set of global providers, per process).
 */
export function startTelemetry(logger: Logger, env: Readonly<Record<string, string | undefined>> = process.env): Telemetry | undefined {
  if (!tracesWanted(env)) return undefined;
  // The SDK's own warnings (an unreachable collector, a bad variable) reach the service log,
  // unless OTEL_LOG_LEVEL asks for the SDK's console logger instead.
  if (!env.OTEL_LOG_LEVEL) diag.setLogger(diagToLogger(logger), DiagLogLevel.WARN);
  const named = Boolean(env.OTEL_SERVICE_NAME?.trim()) || /(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  // `console` spans go to stderr, never into the JSON log lines on stdout.
  const spanProcessors = consoleOnStderrProcessors(env);
  const sdk = new NodeSDK({
    ...(named ? {} : { serviceName: DEFAULT_SERVICE_NAME }),
    ...(spanProcessors && { spanProcessors }),
    ...(env.OTEL_METRICS_EXPORTER ? {} : { metricReaders: [] }),
    ...(env.OTEL_LOGS_EXPORTER ? {} : { logRecordProcessors: [] }),
  });
  sdk.start();
  logger.info(
    {
      exporter: env.OTEL_TRACES_EXPORTER ?? 'otlp',
      endpoint: env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT,
    },
    'OpenTelemetry traces on',
  );
  return {
    shutdown: () =>
      sdk.shutdown().catch((error: unknown) => {
        logger.warn({ err: (error as Error).message }, 'flushing OpenTelemetry traces failed');
      }),
  };
}

/** The SDK's diagnostics as service log lines (warnings and errors only), for `diag.setLogger`. */
export function diagToLogger(logger: Logger): DiagLogger {
  const ignore = () => undefined;
  const warn = (message: string, ...args: unknown[]) => {
    const text = `OpenTelemetry: ${oneLine(message)}`;
    if (args.length > 0) logger.warn({ details: args.map(String) }, text);
    else logger.warn(text);
  };
  return { error: warn, warn, info: ignore, debug: ignore, verbose: ignore };
}

/** The SDK reports export failures as a serialized error (`{"stack":…,"message":…}`): keep its message. */
function oneLine(message: string): string {
  if (!message.startsWith('{')) return message;
  try {
    const parsed = JSON.parse(message) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : message;
  } catch {
    return message;
  }
}
