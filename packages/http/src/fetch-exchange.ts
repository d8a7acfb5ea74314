import type { DeliverySink } from '@a2a-polyglot/core';
import { type HttpExchangeRequest, type HttpExchangeResult, type HttpExchangeStream, readWebBody } from './exchange.js';
import { deliverSse, type SseDeliveryOptions } from './sse-delivery.js';
import { SSE_HEADERS } from './sse-frame.js';

/**
 * The fetch-standard adapter of the universal request (Hono, Bun, Deno, Cloudflare Workers,
 * Node's own `Request`): headers through `Headers.get`, the query parsed from `request.url`
 * when asked, the body read from `request.body` with the byte limit, and `request.signal` as
 * the client-gone signal. `remoteAddress` is what the runtime knows of the peer (none here).
 */
export function fetchExchangeRequest(request: Request, options: { readonly remoteAddress?: string } = {}): HttpExchangeRequest {
  const { header, query } = webHeaderReaders(request.headers, request.url);
  return {
    method: request.method.toUpperCase(),
    header,
    query,
    readBody: (maxBytes) => readWebBody(request.body, request.headers.get('content-length'), maxBytes),
    signal: () => request.signal,
    remoteAddress: options.remoteAddress,
  };
}

/** The header and query readers in a scope of their own, so call contexts keeping them do not keep the request (see `nodeExchangeRequest`). */
function webHeaderReaders(headers: Headers, url: string): Pick<HttpExchangeRequest, 'header' | 'query'> {
  let params: URLSearchParams | undefined;
  return {
    header: (name) => headers.get(name) ?? undefined,
    query: () => {
      params ??= new URL(url).searchParams;
      return params;
    },
  };
}

/** SSE settings of {@link fetchResponse}. */
export type FetchSseOptions = SseDeliveryOptions;

/** Hop-by-hop headers a fetch runtime sets itself (and some refuse in a `Response`). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);

function responseHeaders(headers: Readonly<Record<string, string>>, extra: Readonly<Record<string, string>> = {}): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) out.set(name, value);
  for (const [name, value] of Object.entries(extra)) if (!HOP_BY_HOP.has(name)) out.set(name, value);
  return out;
}

/**
 * A binding's answer as a fetch `Response`: a body with its `content-type`, or an SSE stream
 * as a `ReadableStream` that pulls the event stream only when the consumer reads (see
 * {@link sseBody}).
 */
export function fetchResponse(result: HttpExchangeResult, options: FetchSseOptions = {}): Response {
  if (result.kind === 'sse') {
    return new Response(sseBody(result, options), { status: 200, headers: responseHeaders(SSE_HEADERS, result.headers) });
  }
  const headers = responseHeaders(result.headers);
  if (result.body === '') return new Response(null, { status: result.status, headers });
  headers.set('content-type', result.contentType ?? 'application/json');
  return new Response(result.body, { status: result.status, headers });
}

/**
 * The SSE body of a fetch response. Backpressure by pull: the body holds one chunk (a group of
 * frames); the next is written, and the next batch taken from the event log, only once the
 * consumer read it, so a slow reader costs a log cursor, not memory. Delivery, heartbeats and
 * the stall timeout are {@link deliverSse}'s, as on node; a chunk left unread for
 * `stallTimeoutMs` errors the body. The consumer cancelling, the request's signal or the
 * shutdown signal close the event stream.
 */
export function sseBody(result: HttpExchangeStream, options: FetchSseOptions = {}): ReadableStream<Uint8Array> {
  let sink: PulledStreamSink | undefined;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        sink = new PulledStreamSink(controller);
        const pulled = sink;
        void deliverSse(pulled, result, { ...options, onStall: () => pulled.fail() });
      },
      pull() {
        sink?.pulled();
      },
      cancel() {
        sink?.cancelled();
      },
    },
    { highWaterMark: 1 },
  );
}

/**
 * A `ReadableStream`'s controller as the sink of an SSE stream: room while the consumer has
 * asked for more (`desiredSize > 0`: the queue of one chunk is empty), a wake-up on every
 * pull, closed once the consumer cancelled or the body ended.
 */
class PulledStreamSink implements DeliverySink<readonly string[]> {
  private readonly encoder = new TextEncoder();
  private done = false;
  private wake: () => void = noop;
  private closed: () => void = noop;

  constructor(private readonly controller: ReadableStreamDefaultController<Uint8Array>) {}

  attach(wake: () => void, closed: () => void): void {
    this.wake = wake;
    this.closed = closed;
  }

  write(chunk: readonly string[]): void {
    this.controller.enqueue(this.encoder.encode(chunk.length === 1 ? (chunk[0] as string) : chunk.join('')));
  }

  hasRoom(): boolean {
    return (this.controller.desiredSize ?? 0) > 0;
  }

  isOpen(): boolean {
    return !this.done;
  }

  end(): void {
    if (this.done) return;
    this.done = true;
    try {
      this.controller.close();
    } catch {
      // Already closed or cancelled.
    }
  }

  /** The consumer asked for more. */
  pulled(): void {
    this.wake();
  }

  /** The consumer went away. */
  cancelled(): void {
    this.done = true;
    this.closed();
  }

  /** The stall reaction: the body errors (the consumer stopped reading). */
  fail(): void {
    this.done = true;
    this.controller.error(new Error('SSE stream stalled: the client stopped reading'));
  }
}

function noop(): void {}
