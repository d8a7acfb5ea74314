import type { A2AError, OperationName } from '@a2a-polyglot/core';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/** The client's spans (a no-op tracer until the application registers an OpenTelemetry SDK). */
const tracer = trace.getTracer('@a2a-polyglot/client');

/** One call's CLIENT span and the trace context to send with it. */
export interface CallSpan {
  /** `traceparent` / `tracestate` naming this span (empty without an SDK and propagator). */
  readonly traceHeaders: Readonly<Record<string, string>>;
  /** Ends the span: `ok`, or the error's A2A reason with status ERROR. */
  end(error: A2AError | undefined): void;
}

/**
 * Starts the CLIENT span of one call (`a2a.SendMessage`, …; each retry and resubscribe is a
 * call of its own), child of the caller's active span, and the W3C trace context that makes
 * the agent's SERVER span its child on any binding. A stream's span lasts until the stream
 * ends, so client-side waiting shows in the trace next to the server's work.
 */
export function startCallSpan(operation: OperationName, binding: string, url: string): CallSpan {
  const span = tracer.startSpan(`a2a.${operation}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      'rpc.system': 'a2a',
      'rpc.service': 'lf.a2a.v1.A2AService',
      'rpc.method': operation,
      'a2a.operation': operation,
      'a2a.binding': binding,
      'url.full': withoutQuery(url),
    },
  });
  const traceHeaders: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), traceHeaders);
  let ended = false;
  return {
    traceHeaders,
    end(error) {
      if (ended) return;
      ended = true;
      if (error) {
        span.setAttributes({ 'a2a.outcome': error.code, 'a2a.error.reason': error.code });
        span.setStatus({ code: SpanStatusCode.ERROR, message: error.code });
      } else {
        span.setAttribute('a2a.outcome', 'ok');
      }
      span.end();
    },
  };
}

/** An interface URL as a span may show it (a query could carry a key). */
function withoutQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut < 0 ? url : url.slice(0, cut);
}
