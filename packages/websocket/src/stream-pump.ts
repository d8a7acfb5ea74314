import { type StreamResponse, taskStateToJSON } from '@a2a-polyglot/model';
import { A2AError, type LoggedEvent, type Logger } from '@a2a-polyglot/core';
import type { JsonRpcStreamOutcome } from '@a2a-polyglot/jsonrpc';
import { streamEndFrame, streamStartFrame } from './frames.js';
import type { Outbox } from './outbox.js';
import type { StreamEndReason } from './protocol.js';

/** A stream being delivered on a socket. */
export interface PumpedStream {
  /** Stops delivery (cancelStream, socket gone, shutdown); the task is not touched. Idempotent. */
  stop(reason: StreamEndReason): void;
  /** Settles when the stream's last frame was queued (or the socket went away). Never rejects. */
  readonly done: Promise<void>;
}

/**
 * Delivers one opened stream as frames tied to its request id: `streamStart` (with the
 * response service parameters), the events, each with its `seq`, then exactly one closing
 * frame: `streamEnd` (done / canceled / shutdown, with the last state and seq) or, when the
 * stream fails, a JSON-RPC error response.
 *
 * Flow control: the next event is pulled only when the socket's send buffer has room, so a
 * client that does not read pauses its streams at their log cursor; memory stays bounded.
 */
export function pumpStream(outcome: JsonRpcStreamOutcome, outbox: Outbox, logger: Logger, serviceParams?: Readonly<Record<string, string>>): PumpedStream {
  let stopped: StreamEndReason | undefined;
  let wake: ((value: 'stopped') => void) | undefined;
  const stop = (reason: StreamEndReason) => {
    if (stopped) return;
    stopped = reason;
    outcome.stream.close();
    wake?.('stopped');
  };

  async function run(): Promise<void> {
    const iterator = outcome.stream[Symbol.asyncIterator]();
    let state: string | undefined;
    let lastSeq: number | undefined;
    outbox.send(streamStartFrame(outcome.id, serviceParams));
    try {
      for (;;) {
        if (stopped || !(await outbox.waitForRoom())) break;
        if (stopped) break;
        const pending = iterator.next();
        pending.catch(() => undefined); // a late rejection after we stopped is not unhandled
        const next = await new Promise<IteratorResult<LoggedEvent> | 'stopped'>((resolve, reject) => {
          wake = resolve;
          pending.then(resolve, reject);
        });
        wake = undefined;
        if (next === 'stopped' || next.done) break;
        const { seq, event } = next.value;
        state = eventStateName(event) ?? state;
        if (seq > 0) lastSeq = seq;
        outbox.send({ ...outcome.encodeEvent(event), ...(seq > 0 ? { seq } : {}) });
      }
      outbox.send(streamEndFrame(outcome.id, stopped ?? 'done', state, lastSeq));
    } catch (thrown) {
      const error = A2AError.from(thrown);
      if (error.cause !== undefined) logger.error('WebSocket stream failed', { method: outcome.method, code: error.code, error: error.cause });
      else logger.debug('WebSocket stream ended with an error', { method: outcome.method, code: error.code, message: error.message });
      outbox.send(outcome.encodeError(error));
    } finally {
      outcome.stream.close();
      // Let a generator suspended at a yield run its cleanup (what `break` in for-await does).
      Promise.resolve()
        .then(() => iterator.return?.())
        .catch(() => undefined);
    }
  }

  return { stop, done: run().catch((error: unknown) => logger.error('WebSocket stream pump failed', { error })) };
}

/** The task state an event reports, as its ProtoJSON enum name. */
function eventStateName(event: StreamResponse): string | undefined {
  const p = event.payload;
  const state = p?.$case === 'task' ? p.value.status?.state : p?.$case === 'statusUpdate' ? p.value.status?.state : undefined;
  return state === undefined ? undefined : taskStateToJSON(state);
}
