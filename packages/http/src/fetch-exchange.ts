import { A2AError, logFailure } from '@a2a-polyglot/core';
import { type HttpExchangeRequest, type HttpExchangeResult, type HttpExchangeStream, readWebBody } from './exchange.js';
import { SSE_HEADERS, sseFrame } from './sse-writer.js';

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
export interface FetchSseOptions {
  /** Idle time after which a `: ping` comment is sent. Default 15000; 0 disables. */
  readonly heartbeatMs?: number;
  /**
   * How long a stream may hold an unread frame (the consumer does not pull) before it is ended
   * (the event-log cursor released; the task goes on, the client may resume). Default 30000; 0 disables.
   */
  readonly stallTimeoutMs?: number;
  /** Aborting it ends every open stream (server shutdown). */
  readonly shutdownSignal?: AbortSignal;
}

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
 * The SSE body of a fetch response. Backpressure by pull: the next batch of events is taken
 * from the event log only when the consumer asked for more (queue of one chunk), so a slow
 * reader costs a log cursor, not memory. Each event carries `id: <seq>` (none for seq 0).
 * A quiet stream gets a `: ping` comment every `heartbeatMs`; a chunk left unread for
 * `stallTimeoutMs` (no pull) ends the stream. The consumer cancelling, the request's signal
 * or the shutdown signal close the event stream. A failure after the start is sent as the
 * binding's error frame, then the body ends.
 */
export function sseBody(result: HttpExchangeStream, options: FetchSseOptions = {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const stallTimeoutMs = options.stallTimeoutMs ?? 30_000;
  const { stream, signal, logger } = result;
  const shutdownSignal = options.shutdownSignal;
  let closed = false;
  let wroteSinceTick = false;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let stall: ReturnType<typeof setTimeout> | undefined;
  let ctl: ReadableStreamDefaultController<Uint8Array> | undefined;

  const disarmStall = () => {
    if (stall) clearTimeout(stall);
    stall = undefined;
  };
  const stop = () => {
    if (closed) return;
    closed = true;
    disarmStall();
    if (heartbeat) clearInterval(heartbeat);
    signal.removeEventListener('abort', onAbort);
    shutdownSignal?.removeEventListener('abort', onAbort);
    stream.close();
  };
  const finish = () => {
    stop();
    try {
      ctl?.close();
    } catch {
      // Already closed or cancelled.
    }
  };
  const onAbort = () => finish();
  const send = (text: string) => {
    if (closed || !ctl) return;
    ctl.enqueue(encoder.encode(text));
    wroteSinceTick = true;
    if (stallTimeoutMs > 0 && !stall && (ctl.desiredSize ?? 0) <= 0) {
      stall = setTimeout(() => {
        stall = undefined;
        logger.warn({ stallTimeoutMs }, 'SSE stream ended: the client stopped reading');
        stop();
        ctl?.error(new Error('SSE stream stalled: the client stopped reading'));
      }, stallTimeoutMs);
      unref(stall);
    }
  };

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        ctl = controller;
        signal.addEventListener('abort', onAbort, { once: true });
        shutdownSignal?.addEventListener('abort', onAbort, { once: true });
        if (signal.aborted || shutdownSignal?.aborted) return finish();
        if (heartbeatMs > 0) {
          heartbeat = setInterval(() => {
            // Only while the consumer waits (queue empty): a ping never piles up behind unread frames.
            if (!wroteSinceTick && (ctl?.desiredSize ?? 0) > 0) send(': ping\n\n');
            wroteSinceTick = false;
          }, heartbeatMs);
          unref(heartbeat);
        }
      },
      async pull() {
        disarmStall();
        if (closed) return;
        try {
          const batch = await stream.nextBatch();
          if (closed) return;
          if (batch === undefined) return finish();
          let frames = '';
          for (const { seq, event } of batch) frames += sseFrame(result.encode(event), seq > 0 ? seq : undefined);
          if (frames !== '') send(frames);
        } catch (thrown) {
          const error = A2AError.from(thrown);
          logFailure(logger, error, 'event stream');
          if (!closed) {
            try {
              send(result.errorFrame(error));
            } catch (writeError) {
              logger.error({ err: writeError }, 'failed to write the stream error event');
            }
          }
          finish();
        }
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: 1 },
  );
}

function unref(timer: unknown): void {
  if (typeof timer === 'object' && timer !== null && 'unref' in timer && typeof timer.unref === 'function') timer.unref();
}
