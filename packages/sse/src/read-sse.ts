import type { EventSourceMessage, ParseError } from 'eventsource-parser' with { 'resolution-mode': 'import' };
import { chunkSource, type Chunk, type ChunkSource, type SseBody } from './chunk-source.js';
import { SseError } from './sse-error.js';

/** One dispatched server-sent event. */
export interface SseEvent {
  /** The `event:` field; undefined for the default type (`message`). */
  readonly event?: string;
  /** The `data:` lines joined with `\n` (an event with one empty `data:` line has `''`). */
  readonly data: string;
  /**
   * The stream's last event ID when this event was dispatched: it persists across events until
   * the server sends another `id:` (SSE spec), so it is what a reconnect sends as
   * `Last-Event-ID`. Undefined while the last event ID is empty.
   */
  readonly id?: string;
  /**
   * The `id:` this very event carried, if any. A server that numbers its events (ours: the
   * event log's seq) puts the number here; an event without one is not numbered, even though
   * `id` still holds an earlier number.
   */
  readonly ownId?: string;
}

/** Limits and hooks of one read. Every one is optional; the defaults follow the SSE spec. */
export interface ReadSseOptions {
  /** Largest event (or unfinished line) accepted, in characters. Default {@link DEFAULT_MAX_EVENT_CHARS}. */
  readonly maxEventChars?: number;
  /**
   * Longest wait for the next bytes (comments count) before the read fails with an `idle`
   * {@link SseError}. The clock runs only while waiting for bytes: a consumer that holds the
   * iteration (a task waiting for input) is not the server going silent. Unset or ≤ 0: none.
   */
  readonly idleTimeoutMs?: number;
  /**
   * Deliver a last event that the stream ended without its blank line. The spec discards it
   * (and so does the default); some upstreams close right after `data: [DONE]`.
   */
  readonly dispatchUnterminated?: boolean;
  /**
   * Fail with a `malformed` {@link SseError} on a complete line that is no SSE field (the spec
   * ignores it). Best effort: the parser discards, unreported, a line whose first characters
   * arriving at the end of a chunk already rule it out as a field.
   */
  readonly rejectUnknownLines?: boolean;
  /** Called with the text of each `:` comment (heartbeats). */
  readonly onComment?: (text: string) => void;
  /** Called with each valid `retry:` value (ms). */
  readonly onRetry?: (ms: number) => void;
  /** Aborting stops the read: the iteration throws `signal.reason` and the body is released. */
  readonly signal?: AbortSignal;
}

/** The default event size bound: a2a-js bounds at 4 MiB; artifacts can be bigger. */
export const DEFAULT_MAX_EVENT_CHARS = 16 * 1024 * 1024;

/**
 * Reads a `text/event-stream` body event by event. Parsing is eventsource-parser's (WHATWG
 * event-stream rules: LF, CRLF or CR line ends even when split across chunks, one leading BOM
 * stripped, comments, `retry:`, multi-line data); this adds what every reader of ours needs
 * around it: byte decoding, the last-event-ID bookkeeping, a size bound, an idle timeout and
 * early release. Breaking out of the loop (or `return()`) cancels the body. A transport error
 * from the body passes through unchanged, so the caller can tell a cut from a broken stream;
 * a clean end of the body ends the iteration.
 */
export async function* readSse(body: SseBody, options: ReadSseOptions = {}): AsyncGenerator<SseEvent> {
  // eventsource-parser ships as an ES module only; a dynamic import loads it from our CommonJS
  // build in Node and is bundled like any import in browsers.
  const { createParser } = await import('eventsource-parser');
  const source = chunkSource(body);
  const ready: SseEvent[] = [];
  let failure: SseError | undefined;
  let lastId: string | undefined;
  const maxEventChars = options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS;
  const parser = createParser({
    maxBufferSize: maxEventChars,
    onId: (id) => (lastId = id === '' ? undefined : id),
    onEvent: (message) => ready.push(eventOf(message, lastId)),
    ...(options.onComment && { onComment: options.onComment }),
    ...(options.onRetry && { onRetry: options.onRetry }),
    onError: (error) => (failure ??= failureOf(error, maxEventChars, options.rejectUnknownLines === true)),
  });
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true }); // the parser strips exactly one BOM
  // Events completed before a failing line are still delivered, then the failure is thrown.
  const feed = function* (text: string): Generator<SseEvent> {
    if (text !== '') parser.feed(text);
    yield* ready.splice(0);
    if (failure) throw failure;
  };
  try {
    for (;;) {
      const chunk = await nextChunk(source, options);
      if (chunk.done) break;
      const value = chunk.value ?? '';
      yield* feed(typeof value === 'string' ? value : decoder.decode(value, { stream: true }));
    }
    if (options.dispatchUnterminated) yield* feed(`${decoder.decode()}\n\n`);
  } finally {
    source.cancel();
  }
}

function eventOf(message: EventSourceMessage, lastId: string | undefined): SseEvent {
  return {
    ...(message.event !== undefined && { event: message.event }),
    data: message.data,
    ...(lastId !== undefined && { id: lastId }),
    ...(message.id ? { ownId: message.id } : {}),
  };
}

function failureOf(error: ParseError, maxEventChars: number, rejectUnknownLines: boolean): SseError | undefined {
  if (error.type === 'max-buffer-size-exceeded') return new SseError('too-large', `a server-sent event exceeded ${maxEventChars} characters`);
  if (error.type === 'unknown-field' && rejectUnknownLines)
    return new SseError('malformed', `unexpected line ${JSON.stringify((error.line ?? '').slice(0, 40))}`);
  return undefined;
}

/** The next chunk, unless the idle timeout or the abort signal comes first. */
async function nextChunk(source: ChunkSource, options: ReadSseOptions): Promise<Chunk> {
  const { idleTimeoutMs, signal } = options;
  if (signal?.aborted) throw signal.reason;
  const idle = idleTimeoutMs !== undefined && idleTimeoutMs > 0;
  if (!idle && !signal) return source.read();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    if (idle) timer = setTimeout(() => reject(new SseError('idle', `the stream sent nothing for ${idleTimeoutMs} ms`)), idleTimeoutMs);
    if (signal) {
      onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  try {
    return await Promise.race([source.read(), stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
