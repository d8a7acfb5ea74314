import { taskStateToJSON } from '@a2a-polyglot/model';
import { type DeliveryResult, EventDelivery, type LoggedEvent, type Logger, logFailure } from '@a2a-polyglot/core';
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
 * The delivery is the core's one loop ({@link EventDelivery}) into the connection's bounded
 * writer: ready events go out in groups of up to 64 KiB (one corked socket write each), the
 * next batch is pulled only when the send buffer has room, so a client that does not read
 * pauses its streams at their log cursor; pacing stops it at once when the socket is closing
 * and lets the event loop turn at least every `DELIVERY_TURN_FRAMES` frames.
 */
export function pumpStream(outcome: JsonRpcStreamOutcome, outbox: Outbox, logger: Logger, serviceParams?: Readonly<Record<string, string>>): PumpedStream {
  let stopped: StreamEndReason | undefined;
  const delivery = new EventDelivery(outcome.stream, outbox.writer, {
    encode: ({ seq, event }: LoggedEvent) => outcome.encodeEventText(event, seq),
    frameSize: textLength,
  });
  const stop = (reason: StreamEndReason) => {
    if (stopped) return;
    stopped = reason;
    delivery.stop();
  };

  const end = ({ error, lastState, lastSeq }: DeliveryResult): void => {
    if (error) {
      logFailure(logger, error, 'WebSocket stream', { method: outcome.method });
      outbox.send(outcome.encodeError(error));
      return;
    }
    const state = lastState === undefined ? undefined : taskStateToJSON(lastState);
    outbox.send(streamEndFrame(outcome.id, stopped ?? 'done', state, lastSeq !== undefined && lastSeq > 0 ? lastSeq : undefined));
  };

  // Reactions, not an async frame: an idle stream keeps no suspended frame of its own here.
  let done: Promise<void>;
  try {
    outbox.send(streamStartFrame(outcome.id, serviceParams));
    delivery.sentOwn();
    done = delivery.run().then(end);
  } catch (error) {
    done = Promise.reject(error);
  }
  return { stop, done: done.catch((error: unknown) => logger.error({ err: error }, 'WebSocket stream pump failed')) };
}

function textLength(text: string): number {
  return text.length;
}
