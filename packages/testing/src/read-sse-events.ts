import { readSse } from '@a2a-polyglot/sse';

/** One server-sent event as a test sees it: its own `id:` and `event:` lines when it had them. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** Parsed SSE: events in order, plus the comment lines seen. */
export interface SseRead {
  events: SseEvent[];
  comments: string[];
}

/**
 * Reads an SSE response (parsed by `@a2a-polyglot/sse`, the reader the client uses) to its
 * end, or until `until` says stop (then cancels the body). Bounded by `timeoutMs`: then it
 * returns what it read so far. Works on any fetch `Response`, from a socket or built in-process.
 */
export async function readSseEvents(res: Response, until?: (read: SseRead) => boolean, timeoutMs = 10_000): Promise<SseRead> {
  const read: SseRead = { events: [], comments: [] };
  const stop = new AbortController();
  const deadline = setTimeout(() => stop.abort(new Error(`SSE read timed out after ${timeoutMs} ms`)), timeoutMs);
  const check = () => until?.(read) && stop.abort(new Error('read enough'));
  try {
    const comments = (text: string) => {
      read.comments.push(text.trim());
      check();
    };
    if (res.body === null) throw new Error(`expected an SSE body, got status ${res.status} without one`);
    for await (const e of readSse(res.body, { signal: stop.signal, onComment: comments })) {
      read.events.push({ data: e.data, ...(e.ownId !== undefined && { id: e.ownId }), ...(e.event !== undefined && { event: e.event }) });
      check();
    }
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  } finally {
    clearTimeout(deadline);
  }
  return read;
}
