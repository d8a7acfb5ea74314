import type { DeliverySink } from '@a2a-polyglot/core';

/** The part of a grpc-js server call (ServerWritableStream, ServerDuplexStream) the sink needs: Node Writable semantics plus `cancelled`. */
export interface WritableCall<T> {
  write(message: T, callback?: (error?: Error | null) => void): boolean;
  on(event: 'drain' | 'cancelled', listener: () => void): unknown;
  off(event: 'drain' | 'cancelled', listener: () => void): unknown;
  readonly cancelled: boolean;
  readonly destroyed?: boolean;
}

/**
 * A grpc-js server call as the sink of the core's `BoundedWriter`, for the server stream and
 * the session alike. grpc-js hands each message to HTTP/2, which stops flushing when the
 * client stops reading (flow control): `write()` then returns false and `'drain'` fires once
 * the buffer empties. Room needs two things: the call did not report backpressure, and fewer
 * than `maxPending` messages are unflushed (our own, explicit bound, independent of the
 * stream's internal high-water mark). Each message of a group is its own `write` (gRPC frames
 * messages one by one); a write's flush callback may give room back.
 *
 * Open until the call is cancelled (client cancel, deadline, peer loss) or destroyed; the
 * `'cancelled'` event closes the writer.
 */
export class GrpcCallSink<T> implements DeliverySink<readonly T[]> {
  /** Messages written so far. */
  written = 0;
  /** Highest number of unflushed messages seen (the bound tests assert on). */
  maxPending = 0;
  private pending = 0;
  private blocked = false;
  private wake: () => void = noop;
  private closed: () => void = noop;

  constructor(
    private readonly call: WritableCall<T>,
    private readonly maxPendingMessages: number,
  ) {}

  /** Messages handed to grpc-js and not flushed yet. */
  get pendingMessages(): number {
    return this.pending;
  }

  attach(wake: () => void, closed: () => void): void {
    this.wake = wake;
    this.closed = closed;
    this.call.on('drain', this.onDrain);
    this.call.on('cancelled', this.onCancelled);
  }

  write(messages: readonly T[]): void {
    for (const message of messages) {
      this.pending++;
      this.written++;
      if (this.pending > this.maxPending) this.maxPending = this.pending;
      if (!this.call.write(message, this.onFlushed)) this.blocked = true;
    }
  }

  hasRoom(): boolean {
    return !this.blocked && this.pending < this.maxPendingMessages;
  }

  isOpen(): boolean {
    return !this.call.cancelled && this.call.destroyed !== true;
  }

  release(): void {
    this.call.off('drain', this.onDrain);
    this.call.off('cancelled', this.onCancelled);
  }

  private readonly onFlushed = (): void => {
    this.pending--;
    this.wake();
  };

  private readonly onDrain = (): void => {
    this.blocked = false;
    this.wake();
  };

  private readonly onCancelled = (): void => {
    this.closed();
  };
}

function noop(): void {}
