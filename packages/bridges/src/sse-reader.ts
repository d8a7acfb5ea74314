import { readSse, SseError, type SseEvent } from '@a2a-polyglot/sse';
import { BridgeError } from './bridge-error.js';
import type { UpstreamResponse } from './upstream-http.js';

/** How {@link readUpstreamSse} guards against a stuck or broken upstream. */
export interface SseReadOptions {
  /** Bridge name for error messages. */
  readonly bridge: string;
  /** Longest silence (no bytes at all, comments included) while waiting for bytes before the stream counts as dead. */
  readonly idleTimeoutMs: number;
  /** Largest event accepted, in characters; beyond it the stream is malformed. Default: `@a2a-polyglot/sse`'s. */
  readonly maxEventChars?: number;
}

/**
 * Reads an upstream event stream event by event (parsing is `@a2a-polyglot/sse`'s), settling
 * the request timeout once the stream starts. Breaking out of the loop (or calling `return()`)
 * drops the connection.
 *
 * Stricter than a browser on purpose, because a bridge must fail a task clearly rather than
 * wait on garbage: a line that is no SSE field, or an oversized event, is a malformed stream;
 * `idleTimeoutMs` without a byte while waiting for one aborts the connection. A trailing event
 * without its blank line is still delivered at the end (some servers close right after
 * `data: [DONE]`).
 */
export async function* readUpstreamSse(upstream: UpstreamResponse, options: SseReadOptions): AsyncGenerator<SseEvent> {
  const body = upstream.response.body;
  upstream.settle();
  try {
    if (!body) return;
    yield* readSse(body, {
      idleTimeoutMs: options.idleTimeoutMs,
      dispatchUnterminated: true,
      rejectUnknownLines: true,
      ...(options.maxEventChars !== undefined && { maxEventChars: options.maxEventChars }),
    });
  } catch (error) {
    if (!(error instanceof SseError)) throw upstream.explain(error);
    if (error.failure === 'idle') throw new BridgeError(`The ${options.bridge} upstream sent nothing for ${options.idleTimeoutMs} ms`);
    throw new BridgeError(`The ${options.bridge} upstream sent a malformed event stream (${error.message})`);
  } finally {
    upstream.abort();
  }
}

/** Parses an event's data as JSON, or fails the stream as malformed. */
export function frameJson(frame: SseEvent, bridge: string): Record<string, unknown> {
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
