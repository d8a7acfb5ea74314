/** The part of a grpc-js server stream the writer needs (Node Writable semantics). */
export interface WritableCall<T> {
  write(chunk: T, callback?: (error?: Error | null) => void): boolean;
  on(event: 'drain', listener: () => void): unknown;
  off(event: 'drain', listener: () => void): unknown;
}

/** The stall guard of a {@link BackpressureWriter}. */
export interface StallGuard {
  /** How long the writer may stay blocked (client not reading) before `onStall` runs. 0 = never. */
  readonly stallTimeoutMs: number;
  /** Runs once when the writer stayed blocked for `stallTimeoutMs`. */
  readonly onStall: () => void;
}

/**
 * Writes frames to a grpc-js server stream without ever letting them pile up.
 *
 * grpc-js hands each write to HTTP/2, which stops flushing when the client stops reading
 * (flow control); `write()` then returns false and 'drain' fires once the buffer empties.
 * Producers call {@link ready} before producing the next frame, so a slow reader pauses
 * the producer (for event streams: a cursor in the event log stops advancing) instead of
 * growing a queue. Two conditions must hold to be ready: the stream did not report
 * backpressure, and fewer than `maxPending` writes are unflushed (our own, explicit bound,
 * independent of the stream's internal high-water mark).
 *
 * Pausing is not enough for a reader that never reads again: its frames would sit in HTTP/2
 * buffers for good. With a {@link StallGuard}, a writer that stays blocked for longer than
 * the stall timeout calls `onStall` (the binding then ends the call), as the WebSocket
 * binding closes a stalled socket.
 */
export class BackpressureWriter<T> {
  private pending = 0;
  private blocked = false;
  private closed = false;
  private waiters: Array<() => void> = [];
  private stallTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly onDrain = () => {
    this.blocked = false;
    this.wake();
  };
  /** Frames written so far. */
  written = 0;
  /** Highest number of unflushed frames seen (the bound tests assert on). */
  maxPending = 0;

  constructor(
    private readonly call: WritableCall<T>,
    private readonly maxPendingFrames: number,
    private readonly stall?: StallGuard,
  ) {
    call.on('drain', this.onDrain);
  }

  /** Unflushed frames right now. */
  get pendingFrames(): number {
    return this.pending;
  }

  /** True when a producer may write without adding to a backlog. */
  get writable(): boolean {
    return !this.closed && !this.blocked && this.pending < this.maxPendingFrames;
  }

  /**
   * Writes one frame now, whatever the backpressure state (callers that can wait use
   * {@link ready} first; terminal frames on shutdown cannot). No-op once closed.
   */
  write(chunk: T): void {
    if (this.closed) return;
    this.pending++;
    this.written++;
    if (this.pending > this.maxPending) this.maxPending = this.pending;
    const ok = this.call.write(chunk, () => {
      this.pending--;
      this.wake();
    });
    if (!ok) this.blocked = true;
    if (!this.writable) this.armStall();
  }

  /** Resolves when a frame may be written (or the writer was closed). Never rejects. */
  ready(): Promise<void> {
    if (this.closed || this.writable) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Registers a callback for the next time the writer becomes writable. */
  onWritable(callback: () => void): void {
    if (this.closed || this.writable) callback();
    else this.waiters.push(callback);
  }

  /** Stops writing and releases every waiter (the call ended or went away). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.call.off('drain', this.onDrain);
    this.disarmStall();
    this.wake();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private wake(): void {
    if (!this.closed && !this.writable) return;
    this.disarmStall();
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private armStall(): void {
    const stall = this.stall;
    if (!stall || stall.stallTimeoutMs <= 0 || this.stallTimer || this.closed) return;
    this.stallTimer = setTimeout(() => {
      this.stallTimer = undefined;
      if (!this.closed && !this.writable) stall.onStall();
    }, stall.stallTimeoutMs);
    this.stallTimer.unref?.();
  }

  private disarmStall(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = undefined;
  }
}
