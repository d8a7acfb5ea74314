import { type StreamResponse, taskStateToJSON } from '@a2a-polyglot/model';
import { A2AError, DeliveryPace, eventState, type LoggedEvent, type Logger, logFailure } from '@a2a-polyglot/core';
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
 * Flow control: the next batch of events is pulled only when the socket's send buffer has
 * room, so a client that does not read pauses its streams at their log cursor; memory stays
 * bounded (the mark plus one group of frames of at most 64 KiB).
 *
 * Pacing ({@link DeliveryPace}): delivery stops as soon as the socket is closing (its frames
 * would be dropped, so an always-ready source would never meet a full buffer again), and the
 * event loop turns at least every `DELIVERY_TURN_FRAMES` frames, so a stream whose events are
 * all ready cannot keep the socket's own close event, timers and other sockets from running.
 */
export function pumpStream(outcome: JsonRpcStreamOutcome, outbox: Outbox, logger: Logger, serviceParams?: Readonly<Record<string, string>>): PumpedStream {
  let stopped: StreamEndReason | undefined;
  let state: string | undefined;
  let lastSeq: number | undefined;
  let wake: ((value: 'stopped') => void) | undefined;
  const stop = (reason: StreamEndReason) => {
    if (stopped) return;
    stopped = reason;
    outcome.stream.close();
    wake?.('stopped');
  };
  const pace = new DeliveryPace(() => stopped === undefined && outbox.open);

  /**
   * Sends ready events together (one socket write per group), up to {@link GROUP_BYTES} a
   * group, only while the send buffer is under its mark and until a turn of the event loop
   * is due; returns the events left over.
   */
  function sendWhileRoom(events: readonly LoggedEvent[]): readonly LoggedEvent[] {
    let i = 0;
    while (i < events.length && !pace.due && outbox.hasRoom()) {
      const texts: string[] = [];
      let bytes = 0;
      for (let logged = events[i]; logged !== undefined && bytes < GROUP_BYTES && !pace.due; logged = events[i]) {
        i++;
        pace.sent();
        const { seq, event } = logged;
        state = eventStateName(event) ?? state;
        if (seq > 0) lastSeq = seq;
        const text = outcome.encodeEventText(event, seq);
        bytes += text.length;
        texts.push(text);
      }
      outbox.sendTexts(texts);
    }
    return i === 0 ? events : events.slice(i);
  }

  async function run(): Promise<void> {
    outbox.send(streamStartFrame(outcome.id, serviceParams));
    pace.sent();
    /** Events pulled but not sent yet: the rest of a batch that met a full send buffer. */
    let carry: readonly LoggedEvent[] = [];
    try {
      for (;;) {
        if (pace.due) await pace.turn();
        if (!pace.open || !(await outbox.waitForRoom()) || !pace.open) break;
        if (carry.length > 0) {
          carry = sendWhileRoom(carry);
          continue;
        }
        const pending = outcome.stream.nextBatch();
        // (`then(resolve, reject)` also handles a late rejection after we stopped: no extra catch.)
        const batch = await new Promise<readonly LoggedEvent[] | undefined | 'stopped'>((resolve, reject) => {
          wake = resolve;
          pending.then(resolve, reject);
        });
        wake = undefined;
        if (batch === 'stopped' || batch === undefined) break;
        carry = sendWhileRoom(batch);
      }
      outbox.send(streamEndFrame(outcome.id, stopped ?? 'done', state, lastSeq));
    } catch (thrown) {
      const error = A2AError.from(thrown);
      logFailure(logger, error, 'WebSocket stream', { method: outcome.method });
      outbox.send(outcome.encodeError(error));
    } finally {
      outcome.stream.close();
    }
  }

  return { stop, done: run().catch((error: unknown) => logger.error({ err: error }, 'WebSocket stream pump failed')) };
}

/** Most bytes of frames sent with one write (a batch larger than this goes out in several). */
const GROUP_BYTES = 64 * 1024;

/** The task state an event reports (core's `eventState`), as its ProtoJSON enum name. */
function eventStateName(event: StreamResponse): string | undefined {
  const state = eventState(event);
  return state === undefined ? undefined : taskStateToJSON(state);
}
