import { BoundedWriter, type DeliverySink } from '@a2a-polyglot/core';
import type { WebSocket } from 'ws';

/** How often a paused stream re-checks the send buffer (send callbacks also wake it): `bufferedAmount` has no event. */
const POLL_MS = 10;

/** Settings of {@link Outbox}. */
export interface OutboxOptions {
  /** Streams pause above this many buffered bytes, and go on once the buffer is back at half of it. */
  readonly highWaterMark: number;
  /** How long the buffer may stay above the mark; then `onStall` runs. 0 = never. */
  readonly stallTimeoutMs: number;
  /** Called once when the peer stopped reading for too long (the socket is then closed with 1013). */
  readonly onStall: () => void;
  /**
   * The connection's byte stream (the socket of the upgrade). With it, a group of frames is
   * sent corked, so that it leaves in one system call.
   */
  readonly transport?: { cork(): void; uncork(): void };
}

/**
 * Everything one socket sends goes through here: the socket as the sink of the core's
 * {@link BoundedWriter} ({@link writer}), which every stream of the connection delivers into
 * and whose stall timeout ends a peer that stopped reading. Room: `ws.bufferedAmount` at most
 * the high-water mark; once above it, streams pause until it is back at half the mark
 * (hysteresis, so a stream does not flap around the mark).
 *
 * Why this bounds memory: events come from the core's numbered event log, so a stream that
 * does not pull costs only its cursor. Streams pull only while the writer has room, so the
 * buffer holds at most the high-water mark plus one group of frames per open stream plus the
 * (bounded, see `maxInFlight`) unary answers and control frames.
 */
export class Outbox implements DeliverySink<readonly string[]> {
  /** The connection's one bounded writer (streams deliver into it; unary answers go through {@link send}). */
  readonly writer: BoundedWriter<readonly string[]>;
  readonly pollMs = POLL_MS;
  /** Largest `bufferedAmount` seen right after a send (diagnostics and tests). */
  peakBufferedAmount = 0;
  private paused = false;
  private wake: () => void = noop;

  constructor(
    private readonly socket: WebSocket,
    private readonly options: OutboxOptions,
  ) {
    this.writer = new BoundedWriter(this, { stallTimeoutMs: options.stallTimeoutMs, onStall: options.onStall });
  }

  /** Bytes queued in user space, not yet handed to the kernel. */
  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  /** Sends one JSON frame; silently dropped once the socket is closing (the peer is gone). */
  send(frame: unknown): void {
    if (this.writer.open) this.writer.write([JSON.stringify(frame)]);
  }

  /** The socket closed: the writer releases every waiting stream. Idempotent. */
  shutdown(): void {
    this.writer.close();
  }

  /** @internal Sink: the frames back to back, corked when several, with one completion callback for the lot. */
  write(texts: readonly string[]): void {
    const transport = texts.length > 1 ? this.options.transport : undefined;
    transport?.cork();
    try {
      // Each frame goes out when the next one is known; the last carries the one completion callback.
      let previous: string | undefined;
      for (const text of texts) {
        if (previous !== undefined) this.socket.send(previous);
        previous = text;
      }
      if (previous !== undefined) this.socket.send(previous, this.afterSend);
    } finally {
      transport?.uncork();
    }
    this.peakBufferedAmount = Math.max(this.peakBufferedAmount, this.socket.bufferedAmount);
  }

  /** @internal Sink: under the mark, or back at half of it after a pause. */
  hasRoom(): boolean {
    const buffered = this.socket.bufferedAmount;
    if (this.paused) this.paused = buffered > this.options.highWaterMark / 2;
    else this.paused = buffered > this.options.highWaterMark;
    return !this.paused;
  }

  /**
   * @internal Sink: the socket is still OPEN. False as soon as it is CLOSING (a close frame came
   * or went, the peer hung up), which is before its close event.
   */
  isOpen(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  /** @internal Sink. */
  attach(wake: () => void): void {
    this.wake = wake;
  }

  private readonly afterSend = (error?: Error): void => {
    if (error) this.shutdown();
    else this.wake();
  };
}

function noop(): void {}
