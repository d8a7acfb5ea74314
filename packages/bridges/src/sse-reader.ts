import { BridgeError } from './bridge-error.js';
import type { UpstreamResponse } from './upstream-http.js';

/** One server-sent event. */
export interface SseFrame {
  /** The `event:` field; undefined for the default type. */
  readonly event: string | undefined;
  /** The `data:` lines joined with `\n`. */
  readonly data: string;
  readonly id: string | undefined;
}

/** How {@link readSse} guards against a stuck or broken upstream. */
export interface SseReadOptions {
  /** Bridge name for error messages. */
  readonly bridge: string;
  /** Longest silence (no bytes at all, comments included) before the stream counts as dead. */
  readonly idleTimeoutMs: number;
  /** Longest line accepted; beyond it the stream is malformed. Default 1 MiB. */
  readonly maxLineChars?: number;
}

const FIELDS = new Set(['data', 'event', 'id', 'retry']);

/**
 * Reads an upstream event stream frame by frame (WHATWG event-stream rules: LF, CRLF or CR
 * line ends, `:` comments, one optional space after the colon, multi-line data joined with
 * `\n`), settling the request timeout once the stream starts. Breaking out of the loop (or
 * calling `return()`) drops the connection.
 *
 * Stricter than a browser on purpose, because a bridge must fail a task clearly rather than
 * wait on garbage: a line that is no SSE field, or an endless line, is a malformed stream;
 * `idleTimeoutMs` without a byte while waiting for one aborts the connection. A trailing event without its blank
 * line is still delivered at the end (some servers close right after `data: [DONE]`).
 */
export async function* readSse(upstream: UpstreamResponse, options: SseReadOptions): AsyncGenerator<SseFrame> {
  const body = upstream.response.body;
  upstream.settle();
  if (!body) return;
  const maxLine = options.maxLineChars ?? 1024 * 1024;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let event: string | undefined;
  let id: string | undefined;
  let pendingCr = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = () => {
    clearTimeout(timer);
    timer = setTimeout(() => upstream.abort(new BridgeError(`The ${options.bridge} upstream sent nothing for ${options.idleTimeoutMs} ms`)), options.idleTimeoutMs);
  };
  const malformed = (why: string) => new BridgeError(`The ${options.bridge} upstream sent a malformed event stream (${why})`);

  const line = (text: string): SseFrame | undefined => {
    if (text === '') {
      const frame = data.length > 0 ? { event, data: data.join('\n'), id } : undefined;
      data = [];
      event = undefined;
      return frame;
    }
    if (text.startsWith(':')) return undefined;
    const colon = text.indexOf(':');
    const name = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (!FIELDS.has(name)) throw malformed(`unexpected line ${JSON.stringify(text.slice(0, 40))}`);
    if (name === 'data') data.push(value);
    else if (name === 'event') event = value;
    else if (name === 'id') id = value;
    return undefined;
  };

  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      // The clock runs only while we wait for bytes: a consumer that holds the stream open
      // between turns (a task waiting for input) is not the upstream going silent.
      idle();
      try {
        chunk = await reader.read();
      } catch (error) {
        throw upstream.explain(error);
      } finally {
        clearTimeout(timer);
      }
      if (chunk.done) break;
      let text = decoder.decode(chunk.value, { stream: true });
      if (pendingCr && text.startsWith('\n')) text = text.slice(1);
      pendingCr = false;
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        const frame = line(buffer.slice(start, i));
        if (c === '\r') {
          if (i + 1 < buffer.length) {
            if (buffer[i + 1] === '\n') i++;
          } else pendingCr = true;
        }
        start = i + 1;
        if (frame) yield frame;
      }
      buffer = buffer.slice(start);
      if (buffer.length > maxLine) throw malformed(`a line longer than ${maxLine} characters`);
    }
    buffer += decoder.decode();
    if (buffer !== '') line(buffer);
    const last = line('');
    if (last) yield last;
  } finally {
    clearTimeout(timer);
    upstream.abort();
  }
}

/** Parses a frame's data as JSON, or fails the stream as malformed. */
export function frameJson(frame: SseFrame, bridge: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(frame.data);
  } catch {
    throw new BridgeError(`The ${bridge} upstream sent a malformed event stream (event data is not JSON: ${JSON.stringify(frame.data.slice(0, 40))})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BridgeError(`The ${bridge} upstream sent a malformed event stream (event data is not a JSON object)`);
  }
  return value as Record<string, unknown>;
}
