import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { readSse, SseError, type SseEvent } from '@a2a-polyglot/sse';
import { clientError, networkReason } from './failures.js';
import type { OpenHttp } from './http.js';

/**
 * Reads the SSE body of an open response (parsing is `@a2a-polyglot/sse`'s, shared with the
 * bridges and A2A-Lite) and words its failures as client errors: silence past the idle timeout
 * (heartbeat comments count as activity) is an `idle` failure, a dropped connection a `cut`
 * (resumable), an oversized event an invalid agent response. A clean close simply ends the
 * iteration: the caller decides whether the stream had ended or was cut short. Breaking out
 * closes the connection.
 */
export async function* readOpenSse(open: OpenHttp, options: { idleTimeoutMs?: number; what: string }): AsyncGenerator<SseEvent> {
  const body = open.response.body;
  try {
    if (!body) return;
    yield* readSse(body, options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs });
  } catch (error) {
    throw clientFailure(open, options.what, error);
  } finally {
    open.close();
  }
}

function clientFailure(open: OpenHttp, what: string, error: unknown): A2AError {
  if (error instanceof SseError) {
    if (error.failure === 'idle') return clientError(A2AErrorCode.DeadlineExceeded, 'idle', `${what}: ${error.message}`);
    return new A2AError(A2AErrorCode.InvalidAgentResponse, `${what}: ${error.message}`);
  }
  if (error instanceof A2AError) return error;
  return open.failure() ?? clientError(A2AErrorCode.Unavailable, 'cut', `${what}: the stream was cut (${networkReason(error)})`, error);
}

/**
 * The seq of an SSE event: the `id:` it carried itself, when that is a non-negative integer.
 * Not the inherited last event ID: an unnumbered event must not pass for a repeat of the last.
 */
export function seqOf(event: SseEvent): number | undefined {
  const id = event.ownId;
  return id !== undefined && /^\d{1,15}$/.test(id) ? Number(id) : undefined;
}
