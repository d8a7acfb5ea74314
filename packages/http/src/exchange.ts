import type { StreamResponse } from '@a2a-polyglot/model';
import { A2AError, A2AErrorCode, type ClientCertificate, type EventStream, type Logger } from '@a2a-polyglot/core';

/**
 * The universal request of the HTTP bindings: what JSON-RPC and REST read from an HTTP request,
 * as a plain object read on demand, whatever runtime received it (node:http, fetch, Lambda).
 *
 * Why not the WHATWG `Request`: on node:http, building one costs a header copy, a URL parse and
 * a body stream adapter per request; an adapter here is a few closures over the runtime's own
 * request, and reads headers, query and body only when a binding asks.
 */
export interface HttpExchangeRequest {
  /** The HTTP verb, upper-case (`POST`). */
  readonly method: string;
  /** A request header by name (any case); repeated values joined with `,`; undefined when absent. */
  header(name: string): string | undefined;
  /** The query parameters of the request target (parsed when asked). */
  query(): URLSearchParams;
  /**
   * The body as UTF-8 text, at most `maxBytes` of it.
   * @throws A2AError(PayloadTooLarge) past the limit; A2AError(InvalidRequest) when it cannot be read.
   */
  readBody(maxBytes: number): Promise<string>;
  /**
   * The body as parsed JSON (`undefined` when empty), for runtimes whose framework already
   * parsed it (Express's `express.json()`); absent: {@link readExchangeJson} parses {@link readBody}.
   */
  readJson?(maxBytes: number): Promise<unknown>;
  /**
   * The signal that aborts when the client goes away, made when first asked for (most calls
   * are answered before anything listens).
   */
  signal(): AbortSignal;
  /** The call is answered: let go of the runtime's request (the signal stays valid). */
  release?(): void;
  /** The client address the per-address rate limits count (the peer, or the one resolved behind trusted proxies). */
  readonly remoteAddress?: string;
  /** The client certificate verified by mutual TLS, when the runtime has one. */
  clientCertificate?(): ClientCertificate | undefined;
}

/**
 * A finished answer: status, headers and a text body (`''`: no body, and no content headers).
 * `contentType` is sent with a non-empty body only, as `content-type`.
 */
export interface HttpExchangeBody {
  readonly kind: 'body';
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly contentType?: string;
}

/**
 * A `text/event-stream` answer (status 200, `SSE_HEADERS` plus `headers`): the runtime adapter
 * pulls `stream`, writes each event as `encode` frames it, with backpressure, heartbeats and
 * the stall timeout of its sink, and ends with `errorFrame` if the stream fails after it started.
 * The adapter closes `stream` when the client goes away or `signal` aborts.
 */
export interface HttpExchangeStream {
  readonly kind: 'sse';
  readonly headers: Readonly<Record<string, string>>;
  readonly stream: EventStream;
  /** The `data:` of one event (one line of JSON). */
  readonly encode: (event: StreamResponse) => string;
  /** The whole SSE frame (from `sseFrame`) reporting a failure after the stream started. */
  readonly errorFrame: (error: A2AError) => string;
  /** Aborts when the client goes away (the request's signal). */
  readonly signal: AbortSignal;
  /** The logger of the call (stall warnings, failures). */
  readonly logger: Logger;
}

/** What a binding answers an {@link HttpExchangeRequest} with. */
export type HttpExchangeResult = HttpExchangeBody | HttpExchangeStream;

/** A JSON answer: `body` serialised (undefined: empty body, as with `sendJson`). */
export function jsonResult(status: number, body: unknown, contentType = 'application/json', headers: Readonly<Record<string, string>> = {}): HttpExchangeBody {
  return { kind: 'body', status, headers, body: body === undefined ? '' : JSON.stringify(body), contentType };
}

/** A JSON answer whose text is already written (a direct encoder's): {@link jsonResult} without the `JSON.stringify`. */
export function jsonTextResult(
  status: number,
  text: string,
  contentType = 'application/json',
  headers: Readonly<Record<string, string>> = {},
): HttpExchangeBody {
  return { kind: 'body', status, headers, body: text, contentType };
}

/** An answer without a body (204, 304). */
export function emptyResult(status: number, headers: Readonly<Record<string, string>> = {}): HttpExchangeBody {
  return { kind: 'body', status, headers, body: '' };
}

/** The JSON body of an exchange (see `readJsonBody` for the rules: empty ⇒ undefined, malformed ⇒ ParseError). */
export async function readExchangeJson(req: HttpExchangeRequest, maxBytes: number): Promise<unknown> {
  if (req.readJson) return req.readJson(maxBytes);
  return parseJsonText(await req.readBody(maxBytes));
}

/**
 * A request body's text as JSON: `undefined` for an empty (or whitespace-only) body, a
 * ParseError for malformed JSON.
 * @throws A2AError(ParseError)
 */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    // Checked only on failure: most bodies are JSON, and trimming a large one costs a copy.
    if (text.trim() === '') return undefined;
    throw new A2AError(A2AErrorCode.ParseError, 'The request body is not valid JSON', { cause });
  }
}

/** The error of a body over `maxBytes` (HTTP 413 on every binding). */
export function payloadTooLarge(maxBytes: number): A2AError {
  return new A2AError(A2AErrorCode.PayloadTooLarge, `The request body exceeds the limit of ${maxBytes} bytes`, {
    metadata: { limitBytes: String(maxBytes) },
  });
}

/** A header value of an exchange, trimmed; undefined when absent or empty (as `headerValue`). */
export function exchangeHeaderValue(req: HttpExchangeRequest, name: string): string | undefined {
  const value = req.header(name)?.trim();
  return value === '' ? undefined : value;
}

/**
 * Reads a fetch-standard body stream (`Request.body`) as UTF-8 text with a hard byte limit:
 * a `Content-Length` above it fails before reading, a longer stream as soon as the running
 * count crosses it (the rest is not read). For the fetch and other web-standard adapters.
 * @throws A2AError(PayloadTooLarge | InvalidRequest)
 */
export async function readWebBody(body: ReadableStream<Uint8Array> | null, contentLength: string | null, maxBytes: number): Promise<string> {
  const declared = Number(contentLength ?? Number.NaN);
  if (contentLength !== null && Number.isFinite(declared) && declared > maxBytes) throw payloadTooLarge(maxBytes);
  if (body === null) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        void reader.cancel().catch(() => undefined);
        throw payloadTooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } catch (cause) {
    if (cause instanceof A2AError) throw cause;
    throw new A2AError(A2AErrorCode.InvalidRequest, 'The request body could not be read', { cause });
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(all);
}
