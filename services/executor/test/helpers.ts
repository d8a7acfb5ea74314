/** Shared test helpers: raw HTTP the way curl would send it, and SSE read into parsed events. */
import * as sse from '@a2a-polyglot/sse';

export const V1 = { 'A2A-Version': '1.0' } as const;

/** A JSON body POSTed like `curl -H 'Content-Type: application/json' -d '...'`. */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...V1, ...headers }, body: JSON.stringify(body) });
}

/** The parsed JSON body, untyped: tests poke at wire shapes directly. */
export async function json(res: Response): Promise<any> {
  return res.json();
}

/** A JSON-RPC request envelope. */
export function rpc(method: string, params: unknown, id: number | string = 1): unknown {
  return { jsonrpc: '2.0', id, method, params };
}

/** A user text message in ProtoJSON. */
export function userMessage(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

/** One SSE event: its `event:` name (default "message"), `id:` and parsed `data:` JSON. */
export interface SseEvent {
  readonly event: string;
  readonly id?: string;
  readonly data: any;
}

/**
 * Reads SSE events (parsed by `@a2a-polyglot/sse`, the reader the client uses) from a
 * streaming response until the server closes it, or until `until` returns true (then the
 * connection is dropped). Bounded by `timeoutMs`: then it returns what it read so far.
 */
export async function readSse(res: Response, options: { until?: (e: SseEvent, all: SseEvent[]) => boolean; timeoutMs?: number } = {}): Promise<SseEvent[]> {
  if (!res.body) throw new Error('response has no body');
  const events: SseEvent[] = [];
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  try {
    for await (const e of sse.readSse(res.body, { signal: timeout })) {
      const event: SseEvent = { event: e.event ?? 'message', id: e.ownId, data: e.data === '' ? undefined : JSON.parse(e.data) };
      events.push(event);
      if (options.until?.(event, events)) break;
    }
  } catch (error) {
    if (!timeout.aborted) throw error;
  }
  return events;
}

export { waitFor } from '@a2a-polyglot/testing';

/**
 * Reads an SDK client's stream to its end, calling `onEvent` after each event (to act mid-stream,
 * e.g. cancel), bounded by `timeoutMs` so a stream that never ends fails the test.
 */
export async function collectStream<T>(stream: AsyncIterable<T>, onEvent?: (e: T, all: T[]) => Promise<void> | void, timeoutMs = 10_000): Promise<T[]> {
  const events: T[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`stream not finished after ${timeoutMs} ms`)), timeoutMs)));
  try {
    await Promise.race([
      (async () => {
        for await (const e of stream) {
          events.push(e);
          await onEvent?.(e, events);
        }
      })(),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
  return events;
}

/** The text of every text part, concatenated. */
export function partsText(parts: ReadonlyArray<{ text?: string }> | undefined): string {
  return (parts ?? []).map((p) => p.text ?? '').join('');
}
