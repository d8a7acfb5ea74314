import { type A2AError, BoundedWriter, type DeliverySink, EventDelivery, logFailure } from '@a2a-polyglot/core';
import type { HttpExchangeStream } from './exchange.js';
import { DEFAULT_SSE_HEARTBEAT_MS, DEFAULT_SSE_STALL_TIMEOUT_MS, sseFrame } from './sse-frame.js';

/** SSE settings of a stream, the same on every runtime. */
export interface SseDeliveryOptions {
  /**
   * Idle time after which a `: ping` comment is written, so proxies and clients do not drop a
   * quiet stream (after one to two periods of silence). 0 disables. Default
   * {@link DEFAULT_SSE_HEARTBEAT_MS}.
   */
  readonly heartbeatMs?: number;
  /**
   * How long the reader may leave written frames unread before the stream is ended: the
   * event-log cursor is released, the task goes on and the client can resume with
   * `Last-Event-ID`. 0 disables. Default {@link DEFAULT_SSE_STALL_TIMEOUT_MS}.
   */
  readonly stallTimeoutMs?: number;
  /** Aborting it ends every open stream (server shutdown). */
  readonly shutdownSignal?: AbortSignal;
}

/** The heartbeat chunk: an SSE comment, which clients ignore. */
const PING: readonly string[] = [': ping\n\n'];

/**
 * Delivers a binding's SSE stream into a runtime's sink (a node response, a pulled
 * `ReadableStream`) with the core's one delivery loop and bounded writer: each event as an
 * SSE frame with `id: <seq>` (omitted for seq 0, the message-only stream, which cannot be
 * resumed), ready events grouped into one write of up to 64 KiB, the next batch pulled only
 * when the sink has room, heartbeats on quiet streams, the stall timeout. A failure after the
 * start is written as the binding's error frame; then the sink is ended. `onStall` is the
 * runtime's reaction to a reader that stopped reading (destroy the response, error the body).
 * Never rejects.
 */
export function deliverSse(
  sink: DeliverySink<readonly string[]>,
  result: HttpExchangeStream,
  options: SseDeliveryOptions & { readonly onStall: () => void },
): Promise<void> {
  const { logger, encode } = result;
  const stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_SSE_STALL_TIMEOUT_MS;
  let delivery: EventDelivery<string> | undefined;
  const writer = new BoundedWriter(sink, {
    heartbeatMs: options.heartbeatMs ?? DEFAULT_SSE_HEARTBEAT_MS,
    heartbeat: PING,
    stallTimeoutMs,
    onClose: () => delivery?.stop(),
    onStall: () => {
      logger.warn({ stallTimeoutMs }, 'SSE stream ended: the client stopped reading');
      options.onStall();
    },
  });
  delivery = new EventDelivery(result.stream, writer, {
    encode: ({ seq, event }) => sseFrame(encode(event), seq > 0 ? seq : undefined),
    frameSize: frameLength,
    signal: result.signal,
    shutdownSignal: options.shutdownSignal,
  });
  // A reaction, not an async frame: an idle stream keeps no suspended frame of its own here.
  return delivery.run().then(({ error }) => endSse(writer, result, error));
}

/** The end of an SSE stream: the binding's error frame if the delivery failed, then the end of the sink. */
function endSse(writer: BoundedWriter<readonly string[]>, result: HttpExchangeStream, error: A2AError | undefined): void {
  if (error) {
    const { logger } = result;
    logFailure(logger, error, 'event stream');
    try {
      writer.write([result.errorFrame(error)]);
    } catch (writeError) {
      logger.error({ err: writeError }, 'failed to write the stream error event');
    }
  }
  writer.end();
}

function frameLength(frame: string): number {
  return frame.length;
}
