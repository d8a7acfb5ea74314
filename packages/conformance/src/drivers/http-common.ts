import type { RequestHandler } from '@a2a-polyglot/core';
import { startA2AServer } from '@a2a-polyglot/server';
import {
  DEFAULT_HEADERS,
  DriverFailure,
  failed,
  mergeHeaders,
  type CallOptions,
  type CallResult,
  type DriverError,
  type DriverStream,
  type OpenResult,
  type StreamItem,
} from '../driver.js';
import { parseSse, type SseEvent } from '../sse.js';

/**
 * Pieces both HTTP drivers share: starting the server under test, reading bodies, and
 * turning an SSE response into a {@link DriverStream}.
 * @internal
 */

/** Where the HTTP bindings of one test server live. */
export interface HttpServerUnderTest {
  /** Server root, e.g. `http://127.0.0.1:43123`. */
  readonly url: string;
  /** The mount point of the A2A endpoints (`/a2a`): JSON-RPC at `${url}${basePath}/rpc`, REST under `${url}${basePath}`. */
  readonly basePath: string;
  close(): Promise<void>;
}

/** Starts a fresh `@a2a-polyglot/server` for one handler on 127.0.0.1, port 0. */
export async function startServerUnderTest(handler: RequestHandler): Promise<HttpServerUnderTest> {
  const basePath = '/a2a';
  const server = await startA2AServer({ handler, basePath, host: '127.0.0.1', port: 0 });
  return { url: server.url, basePath, close: () => server.close() };
}

/**
 * Outcome code for a binding that broke its own wire rules (wrong content type, a response
 * that is not a JSON-RPC envelope, a success body on an error status, ...): no A2A code
 * applies, and the comparator must see it as a failure.
 */
export const WIRE_VIOLATION = 'WIRE_VIOLATION';

/** A {@link DriverError} for a wire-rule violation. */
export function wireViolation(message: string): { ok: false; error: DriverError } {
  return { ok: false, error: { code: WIRE_VIOLATION, message } };
}

/** The body as JSON; `undefined` for an empty body; a wire violation message for non-JSON text. */
export async function readJson(res: Response): Promise<{ json: unknown } | { invalid: string }> {
  const text = await res.text();
  if (text.trim() === '') return { json: undefined };
  try {
    return { json: JSON.parse(text) };
  } catch {
    return { invalid: `HTTP ${res.status} body is not JSON: ${text.slice(0, 200)}` };
  }
}

/** The media type of a response (lower case, no parameters). */
export function mediaTypeOf(res: Response): string {
  const [mediaType = ''] = (res.headers.get('content-type') ?? '').split(';');
  return mediaType.trim().toLowerCase();
}

/**
 * Wraps an SSE response as a {@link DriverStream}. `decode` turns one SSE event into a stream
 * item or throws the binding's mid-stream error. `close()` aborts the fetch: the connection
 * drops at once and the iterator ends quietly, which is exactly a client cut.
 */
export function sseDriverStream(res: Response, controller: AbortController, decode: (event: SseEvent) => StreamItem): DriverStream {
  const body = res.body;
  return {
    close: () => controller.abort(),
    async *[Symbol.asyncIterator]() {
      if (!body) return;
      try {
        for await (const event of parseSse(body)) yield decode(event);
      } catch (error) {
        if (controller.signal.aborted) return;
        throw error;
      } finally {
        controller.abort();
      }
    },
  };
}

/**
 * Opens an SSE stream the way both REST drivers do: `send` the operation with
 * `Accept: text/event-stream` (and `Last-Event-ID` to resume); a non-SSE answer is read as a
 * unary one (an error, or a wire violation when it is a result).
 */
export async function openSseStream(
  operation: string,
  options: CallOptions | undefined,
  send: (options: CallOptions, signal: AbortSignal) => Promise<Response>,
  decode: (event: SseEvent) => StreamItem,
  unaryAnswer: (res: Response) => Promise<CallResult>,
): Promise<OpenResult> {
  const controller = new AbortController();
  try {
    const extra: Record<string, string | null> = { Accept: 'text/event-stream' };
    if (options?.resumeAfterSeq !== undefined) extra['Last-Event-ID'] = String(options.resumeAfterSeq);
    const res = await send({ headers: { ...extra, ...options?.headers } }, controller.signal);
    if (mediaTypeOf(res) !== 'text/event-stream') {
      const answer = await unaryAnswer(res);
      return answer.ok ? wireViolation(`${operation} answered a plain result instead of an event stream`) : answer;
    }
    return { ok: true, stream: sseDriverStream(res, controller, decode) };
  } catch (error) {
    controller.abort();
    return failed(error);
  }
}

/** The seq of an SSE event: its `id:` as a number, undefined when absent. */
export function seqOf(event: SseEvent): number | undefined {
  if (event.id === undefined || event.id === '') return undefined;
  const n = Number(event.id);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Parses one SSE `data:` as JSON, or throws a wire violation. */
export function parseData(event: SseEvent): unknown {
  try {
    return JSON.parse(event.data);
  } catch {
    throw new DriverFailure(WIRE_VIOLATION, `SSE data is not JSON: ${event.data.slice(0, 200)}`);
  }
}

/**
 * GETs the agent card the way every driver does. With `listing`, the card must also list the
 * binding under test at its address (a card that hides its own endpoint is a wire violation).
 */
export async function fetchAgentCard(
  cardUrl: string,
  listing?: { readonly protocolBinding: string; readonly url: string },
  transport: typeof fetch = fetch,
): Promise<CallResult> {
  try {
    const res = await transport(cardUrl, { headers: mergeHeaders({ ...DEFAULT_HEADERS }, undefined) });
    const body = await readJson(res);
    if ('invalid' in body) return wireViolation(body.invalid);
    if (!res.ok) return wireViolation(`agent card: HTTP ${res.status}`);
    if (listing) {
      const interfaces = (body.json as { supportedInterfaces?: Array<{ protocolBinding?: string; url?: string }> }).supportedInterfaces ?? [];
      if (!interfaces.some((i) => i.protocolBinding === listing.protocolBinding && i.url === listing.url)) {
        return wireViolation(`the card does not list ${listing.url} as ${listing.protocolBinding}`);
      }
    }
    return { ok: true, result: body.json };
  } catch (error) {
    return failed(error);
  }
}
