import type { WebSocket } from 'ws';

/** How often a paused stream re-checks the send buffer (send callbacks also wake it). */
const POLL_MS = 10;

/** Settings of {@link Outbox}. */
export interface OutboxOptions {
  /** Streams pause above this many buffered bytes. */
  readonly highWaterMark: number;
  /** How long the buffer may stay above the mark; then `onStall` runs. 0 = never. */
  readonly stallTimeoutMs: number;
  /** Called once when the peer stopped reading for too long (the socket is then closed with 1013). */
  readonly onStall: () => void;
  /**
   * The connection's byte stream (the socket of the upgrade). With it, {@link Outbox.sendAll}
   * corks it so that a batch of frames leaves in one system call.
   */
  readonly transport?: { cork(): void; uncork(): void };
}

/**
 * Everything one socket sends goes through here. It serializes frames and gives streams a
 * way to wait for room: {@link waitForRoom} resolves once `ws.bufferedAmount` is at most
 * half the high-water mark (hysteresis, so a stream does not flap around the mark).
 *
 * Why this bounds memory: events come from the core's numbered event log, so a stream that
 * does not pull costs only its cursor. Streams pull only while {@link waitForRoom} says
 * there is room, so the buffer holds at most the high-water mark plus one event per open
 * stream plus the (bounded, see `maxInFlight`) unary answers and control frames.
 */
export class Outbox {
  private waiters: Array<(room: boolean) => void> = [];
  private poll: NodeJS.Timeout | undefined;
  private stall: NodeJS.Timeout | undefined;
  private closed = false;
  /** Largest `bufferedAmount` seen right after a send (diagnostics and tests). */
  peakBufferedAmount = 0;

  constructor(
    private readonly socket: WebSocket,
    private readonly options: OutboxOptions,
  ) {}

  /** Bytes queued in user space, not yet handed to the kernel. */
  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  /**
   * The socket takes frames: not closed and still OPEN. False as soon as it is CLOSING (a
   * close frame came or went, the peer hung up), which is before its close event: frames
   * are dropped from then on, so a stream must stop at once rather than wait for that event.
   */
  get open(): boolean {
    return !this.closed && this.socket.readyState === this.socket.OPEN;
  }

  /** Sends one JSON frame; silently dropped once the socket is closing (the peer is gone). */
  send(frame: unknown): void {
    if (!this.open) return;
    this.socket.send(JSON.stringify(frame), this.afterSend);
    this.peakBufferedAmount = Math.max(this.peakBufferedAmount, this.socket.bufferedAmount);
  }

  /**
   * Sends several frames (JSON text) back to back, with one socket write when the transport
   * can be corked (a stream's batch of ready events) and one completion callback for the lot.
   */
  sendTexts(texts: readonly string[]): void {
    if (!this.open || texts.length === 0) return;
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

  private readonly afterSend = (error?: Error): void => {
    if (error) this.shutdown();
    else this.check();
  };

  /** The socket is {@link open} and its send buffer at most at its high-water mark: a stream may send more now. */
  hasRoom(): boolean {
    return this.open && this.socket.bufferedAmount <= this.options.highWaterMark;
  }

  /**
   * Resolves `true` when a stream may pull its next event, `false` when the socket is closing
   * or closed, now or while waiting (the stream must stop).
   */
  waitForRoom(): Promise<boolean> {
    if (!this.open) return Promise.resolve(false);
    if (this.socket.bufferedAmount <= this.options.highWaterMark) return Promise.resolve(true);
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.poll ??= setInterval(() => this.check(), POLL_MS);
      if (this.options.stallTimeoutMs > 0) this.stall ??= setTimeout(() => this.onStallTimer(), this.options.stallTimeoutMs);
    });
  }

  /** The socket closed: release every waiter with `false`. Idempotent. */
  shutdown(): void {
    this.closed = true;
    this.release(false);
  }

  private check(): void {
    if (this.waiters.length === 0) return;
    if (!this.open) {
      this.release(false);
      return;
    }
    if (this.socket.bufferedAmount <= this.options.highWaterMark / 2) this.release(true);
  }

  private onStallTimer(): void {
    this.stall = undefined;
    if (this.waiters.length === 0 || this.socket.bufferedAmount <= this.options.highWaterMark / 2) return;
    this.options.onStall();
  }

  private release(room: boolean): void {
    const waiters = this.waiters;
    this.waiters = [];
    if (this.poll) clearInterval(this.poll);
    if (this.stall) clearTimeout(this.stall);
    this.poll = undefined;
    this.stall = undefined;
    for (const resolve of waiters) resolve(room);
  }
}
