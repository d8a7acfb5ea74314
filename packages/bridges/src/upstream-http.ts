import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { BridgeError } from './bridge-error.js';
import { isRecord } from './json-object.js';
import { safeUrl } from './redact.js';

/** One HTTP call to an upstream. */
export interface UpstreamRequest {
  /** Bridge name, for messages (`The openai-chat upstream …`). */
  readonly bridge: string;
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON when defined. */
  readonly body?: unknown;
  /** Aborts the call and any body read (task canceled, run deadline, shutdown). */
  readonly signal: AbortSignal;
  /** Until the headers arrive, and on until {@link UpstreamResponse.settle} is called. */
  readonly timeoutMs: number;
  readonly fetch: typeof fetch;
}

/** An upstream response with a 2xx status, still under the request's timeout until settled. */
export interface UpstreamResponse {
  readonly response: Response;
  /** Stops the timeout: call it once the part the timeout covers has arrived. */
  settle(): void;
  /** Drops the connection (stop reading early); `reason` is what {@link explain} then reports. */
  abort(reason?: BridgeError): void;
  /** Turns an error from reading the body into the BridgeError (or abort reason) to report. */
  explain(error: unknown): unknown;
}

/** Upstream request spans (a no-op tracer until an OpenTelemetry SDK registers a provider). */
const tracer = trace.getTracer('@a2a-polyglot/bridges');

/** Ends an upstream span when the response headers arrived (or the request failed): a stream's body is the run's, not the request's. */
function endSpan(span: Span, failure: string | undefined): void {
  if (failure !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
  span.end();
}

/** Largest error body read to find the upstream's error message. */
const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * Calls an upstream and returns its 2xx response. Everything else becomes a
 * {@link BridgeError} with a message a client may see: unreachable (with the network error
 * code), no answer within `timeoutMs`, or `HTTP <status>: <the upstream's own error message>`.
 * A caller abort rethrows the abort reason, so cancellation stays cancellation.
 *
 * Each call is a CLIENT span (`POST`/`GET`, child of the agent's run) until the response
 * headers arrive, and sends its W3C `traceparent`, so the upstream's trace continues the
 * A2A task's. Both are no-ops without an OpenTelemetry SDK.
 */
export async function openUpstream(request: UpstreamRequest): Promise<UpstreamResponse> {
  const { bridge, signal } = request;
  if (signal.aborted) throw signal.reason;
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(
    () => controller.abort(new BridgeError(`The ${bridge} upstream did not answer within ${request.timeoutMs} ms`, { url: safeUrl(request.url) })),
    request.timeoutMs,
  );
  const settle = () => clearTimeout(timer);
  const explain = (error: unknown): unknown => {
    if (signal.aborted) return signal.reason;
    if (controller.signal.aborted && controller.signal.reason instanceof BridgeError) return controller.signal.reason;
    if (error instanceof BridgeError) return error;
    return new BridgeError(`The connection to the ${bridge} upstream broke (${networkCode(error) ?? 'read error'})`, {
      url: safeUrl(request.url),
      error: String(error),
    });
  };

  const method = request.method ?? 'POST';
  const span = tracer.startSpan(method, {
    kind: SpanKind.CLIENT,
    attributes: { 'http.request.method': method, 'url.full': safeUrl(request.url), 'a2a.bridge': bridge },
  });
  const traceHeaders: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), traceHeaders);
  let response: Response;
  try {
    response = await request.fetch(request.url, {
      method,
      headers: {
        accept: 'application/json, text/event-stream',
        ...(request.body !== undefined && { 'content-type': 'application/json' }),
        ...traceHeaders,
        ...request.headers,
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: controller.signal,
    });
  } catch (error) {
    settle();
    signal.removeEventListener('abort', onAbort);
    endSpan(span, String(networkCode(error) ?? error));
    if (signal.aborted || controller.signal.aborted) throw explain(error);
    const code = networkCode(error);
    throw new BridgeError(`The ${bridge} upstream is unreachable (${code ?? 'network error'})`, { url: safeUrl(request.url), error: String(error) });
  }

  span.setAttribute('http.response.status_code', response.status);
  endSpan(span, response.ok ? undefined : `HTTP ${response.status}`);
  if (!response.ok) {
    let message: string | undefined;
    try {
      message = await upstreamErrorMessage(response);
    } catch {
      message = undefined;
    } finally {
      settle();
      signal.removeEventListener('abort', onAbort);
      controller.abort();
    }
    throw new BridgeError(`The ${bridge} upstream answered HTTP ${response.status}${message ? `: ${message}` : ''}`, {
      url: safeUrl(request.url),
      status: response.status,
    });
  }

  return {
    response,
    settle,
    abort: (reason) => {
      settle();
      signal.removeEventListener('abort', onAbort);
      controller.abort(reason);
    },
    explain,
  };
}

/**
 * Reads a whole JSON body (non-streaming calls) under the request's timeout, then settles.
 * Not JSON ⇒ a BridgeError saying so.
 */
export async function readJsonBody(upstream: UpstreamResponse, bridge: string): Promise<unknown> {
  let text: string;
  try {
    text = await upstream.response.text();
  } catch (error) {
    throw upstream.explain(error);
  } finally {
    upstream.settle();
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new BridgeError(`The ${bridge} upstream answered with malformed JSON`, { body: text.slice(0, 200) });
  }
}

/** True when the response is an event stream (else it is treated as one JSON document). */
export function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
}

/** The upstream's own error message from an OpenAI-style envelope, or the start of the body. */
async function upstreamErrorMessage(response: Response): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return undefined;
  const decoder = new TextDecoder();
  let text = '';
  while (text.length < ERROR_BODY_LIMIT) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  void reader.cancel().catch(() => undefined);
  let message: unknown;
  try {
    const json: unknown = JSON.parse(text);
    const error = isRecord(json) ? json.error : undefined;
    if (json === null) message = text;
    else if (typeof error === 'string') message = error;
    else message = (isRecord(error) ? error.message : undefined) ?? (isRecord(json) ? (json.message ?? json.detail) : undefined);
  } catch {
    message = text;
  }
  if (typeof message !== 'string') return undefined;
  const oneLine = message.replace(/\s+/g, ' ').trim();
  return oneLine === '' ? undefined : oneLine.length > 300 ? `${oneLine.slice(0, 300)}…` : oneLine;
}

/** The system error code behind a fetch failure (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET, …). */
function networkCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; isRecord(e) && depth < 4; e = e.cause, depth++) {
    if (typeof e.code === 'string') return e.code;
  }
  return undefined;
}
