import type { A2AError } from '@a2a-polyglot/core';
import { aborted, timedOut, unreachable } from './failures.js';

/** The protocol version this client speaks; sent as `A2A-Version` on every request (spec §3.2). */
export const A2A_VERSION = '1.0';
/** Header carrying {@link A2A_VERSION}. */
export const VERSION_HEADER = 'A2A-Version';

/** One HTTP exchange as the HTTP bindings make it. */
export interface HttpCall {
  readonly url: string;
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly headers: Headers;
  readonly body?: string;
  readonly signal?: AbortSignal;
  /** Bounds the exchange until {@link OpenHttp.settle} (the headers, or the whole body for unary calls). */
  readonly timeoutMs?: number;
  /** Names the call in error messages, e.g. `GetTask at http://host/a2a/rpc`. */
  readonly what: string;
}

/** A request whose response headers arrived; its body is still to be read. */
export interface OpenHttp {
  readonly response: Response;
  /** Why the exchange was aborted by us (deadline, caller abort, idle), if it was. */
  failure(): A2AError | undefined;
  /** Aborts the exchange with `reason` (a later read rejects; {@link failure} returns it). */
  fail(reason: A2AError): void;
  /** Stops the deadline timer: the caller now bounds the rest itself (streams). */
  settle(): void;
  /** Releases everything: timers, the caller's abort listener, the connection if still open. */
  close(): void;
}

/** The extensions header of A2A v0.3 (v1.0 dropped the `X-`, spec §0 item 14). */
export const V03_EXTENSIONS_HEADER = 'X-A2A-Extensions';

/**
 * Default headers of every HTTP call: the caller's, then the transport's own, then the
 * version, which nothing overrides. A v0.3 call carries no `A2A-Version` (v0.3 servers read
 * its absence as 0.3, spec §12.4) and names the extensions header the v0.3 way.
 */
export function callHeaders(extra: Readonly<Record<string, string>> | undefined, own: Readonly<Record<string, string>>, wire: 'v1' | 'v03' = 'v1'): Headers {
  const headers = new Headers();
  for (const [k, v] of Object.entries(extra ?? {})) headers.set(k, v);
  for (const [k, v] of Object.entries(own)) headers.set(k, v);
  if (wire === 'v1') {
    headers.set(VERSION_HEADER, A2A_VERSION);
    return headers;
  }
  headers.delete(VERSION_HEADER);
  const extensions = headers.get('A2A-Extensions');
  if (extensions !== null) {
    headers.delete('A2A-Extensions');
    headers.set(V03_EXTENSIONS_HEADER, extensions);
  }
  return headers;
}

/**
 * Sends one request with a deadline and the caller's abort signal, mapping every way it can
 * fail before the response starts into an A2AError: unreachable host, timeout, abort. Only
 * fetch and AbortController are used, so it runs in browsers as well as in Node.
 */
export async function openHttp(fetchImpl: typeof fetch, call: HttpCall): Promise<OpenHttp> {
  if (call.signal?.aborted) throw aborted(call.what);
  const controller = new AbortController();
  let failure: A2AError | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fail = (reason: A2AError) => {
    if (controller.signal.aborted) return;
    failure = reason;
    controller.abort(reason);
  };
  const onCallerAbort = () => fail(aborted(call.what));
  call.signal?.addEventListener('abort', onCallerAbort, { once: true });
  if (call.timeoutMs !== undefined && call.timeoutMs > 0) {
    const ms = call.timeoutMs;
    timer = setTimeout(() => fail(timedOut(call.what, ms)), ms);
  }
  const settle = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const close = () => {
    settle();
    call.signal?.removeEventListener('abort', onCallerAbort);
    if (!controller.signal.aborted) controller.abort();
  };
  try {
    const response = await fetchImpl(call.url, { method: call.method, headers: call.headers, body: call.body, signal: controller.signal });
    return { response, failure: () => failure, fail, settle, close };
  } catch (error) {
    close();
    throw failure ?? unreachable(call.url, error);
  }
}

/** Reads the whole body as text under the call's deadline, then releases the call. */
export async function readText(open: OpenHttp, url: string): Promise<string> {
  try {
    return await open.response.text();
  } catch (error) {
    throw open.failure() ?? unreachable(url, error);
  } finally {
    open.close();
  }
}

/** The media type of a response, lower-case, without parameters (`''` when absent). */
export function mediaType(response: Response): string {
  const contentType = response.headers.get('content-type') ?? '';
  const end = contentType.indexOf(';');
  return (end === -1 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
}

/** True for `application/json` and `application/*+json` (`application/a2a+json`). */
export function isJsonMedia(type: string): boolean {
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** True for a JSON object (not null, not an array): how the transports check an answer's shape. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses JSON text, or returns `undefined` when it is not JSON. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A short description of a body for error messages: its type and, for text, its start. */
export function describeBody(type: string, text: string): string {
  const snippet = text.replace(/\s+/g, ' ').trim().slice(0, 60);
  return `${type || 'no content type'}${snippet ? `: "${snippet}${text.length > 60 ? '…' : ''}"` : ', empty body'}`;
}
