import type { StreamResponse } from '@a2a-polyglot/model';
import { A2AError, DeliveryPace, type EventStream, type LoggedEvent, type Logger, logFailure, silentLogger } from '@a2a-polyglot/core';
import { allowManyListeners } from './abort-signal.js';
import { sseFrame, type SseWriter } from './sse-writer.js';

/** How {@link pipeEventStream} turns events and failures into SSE. */
export interface PipeEventStreamOptions {
  /** The `data:` of one event (a one-line JSON document in the binding's framing). */
  readonly encode: (event: StreamResponse) => string;
  /**
   * Writes the binding's error event when the stream fails after it started (JSON-RPC: an
   * error response with the request id; REST: `event: error`). Not called if the client is gone.
   */
  readonly onError: (error: A2AError, sse: SseWriter) => unknown;
  /** Aborts the stream early: the client went away. */
  readonly signal?: AbortSignal;
  /** Aborts the stream early too: the server shuts down (a long-lived signal, one listener per open stream). */
  readonly shutdownSignal?: AbortSignal;
  readonly logger?: Logger;
}

/**
 * Pumps an {@link EventStream} into an SSE response until the stream ends, the client goes
 * away or `signal` or `shutdownSignal` aborts, then ends the response.
 *
 * Each event carries `id: <seq>` (omitted for seq 0, the message-only stream, which cannot be
 * resumed) so clients can resume with `Last-Event-ID`. Events are pulled in batches (all that
 * are ready) and written together, one socket write per 64 KiB: an agent that reports a hundred
 * chunks at once costs one system call, not a hundred. The next batch is pulled only after the
 * previous one was accepted by the socket, so backpressure reaches the event log. Closing the
 * stream on disconnect releases it even while it waits for the next event.
 * Pacing ({@link DeliveryPace}): no frame is encoded once the response is closing (destroyed,
 * its socket gone), and the event loop turns at least every `DELIVERY_TURN_FRAMES` frames,
 * so a stream whose events are all ready, to a client that reads as fast, cannot hold the
 * process for itself.
 * Never rejects.
 */
export async function pipeEventStream(stream: EventStream, sse: SseWriter, options: PipeEventStreamOptions): Promise<void> {
  const { signal, shutdownSignal } = options;
  const logger = options.logger ?? silentLogger;
  // Resolves when the client goes away or the signal aborts, so a stream that is slow to
  // honour close() cannot keep the response open.
  // (One waker per pull rather than Promise.race against a long-lived promise, which would
  // keep a reaction per event alive for the whole stream.)
  let halted = false;
  let wake: ((value: 'stopped') => void) | undefined;
  const onStop = () => {
    halted = true;
    wake?.('stopped');
    stream.close();
  };
  sse.onClose(onStop);
  signal?.addEventListener('abort', onStop, { once: true });
  if (shutdownSignal) {
    allowManyListeners(shutdownSignal);
    shutdownSignal.addEventListener('abort', onStop, { once: true });
  }
  if (signal?.aborted || shutdownSignal?.aborted) onStop();
  const pace = new DeliveryPace(() => !halted && !sse.closed);
  try {
    pipe: for (;;) {
      if (pace.due) await pace.turn();
      if (!pace.open) break;
      const pending = stream.nextBatch();
      // (`then(resolve, reject)` also handles a late rejection after we stopped: no extra catch.)
      const batch = await new Promise<readonly LoggedEvent[] | undefined | 'stopped'>((resolve, reject) => {
        wake = resolve;
        pending.then(resolve, reject);
      });
      wake = undefined;
      if (batch === 'stopped' || batch === undefined) break;
      let frames = '';
      for (const { seq, event } of batch) {
        if (!pace.open) break pipe;
        frames += sseFrame(options.encode(event), seq > 0 ? seq : undefined);
        pace.sent();
        if (frames.length < GROUP_CHARS && !pace.due) continue;
        if (!(await sse.raw(frames))) break pipe;
        frames = '';
        if (pace.due) await pace.turn();
      }
      if (frames !== '' && !(await sse.raw(frames))) break;
    }
  } catch (thrown) {
    const error = A2AError.from(thrown);
    logFailure(logger, error, 'event stream');
    if (!sse.closed) {
      try {
        await options.onError(error, sse);
      } catch (writeError) {
        logger.error({ err: writeError }, 'failed to write the stream error event');
      }
    }
  } finally {
    signal?.removeEventListener('abort', onStop);
    shutdownSignal?.removeEventListener('abort', onStop);
    stream.close();
    sse.end();
  }
}

/** A batch is written in pieces of about this many characters, so one write never holds a whole large batch. */
const GROUP_CHARS = 64 * 1024;
