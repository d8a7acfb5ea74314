import { heartbeatClock, type HeartbeatClock, type HeartbeatMember } from './heartbeat-clock.js';

/**
 * The per-runtime end of a {@link BoundedWriter}: what one transport (a node response, a
 * grpc-js call, a WebSocket, a pulled ReadableStream) says about room and how it takes a
 * chunk. Kept this small so that each binding writes only what differs between runtimes;
 * waiting, the stall timeout and heartbeats are the writer's, once.
 */
export interface DeliverySink<C> {
  /**
   * Hands one chunk to the transport now, whatever its room (the writer asks {@link hasRoom}
   * after). The chunk must not be kept after the call: the delivery loop reuses its group.
   */
  write(chunk: C): void;
  /**
   * True when another chunk may go now. A sink with hysteresis (pause above a mark, resume
   * below half of it) keeps that state here. Cheap: asked per group of frames.
   */
  hasRoom(): boolean;
  /**
   * True while the transport takes chunks; false as soon as it is closing (a destroyed
   * response, a cancelled call, a WebSocket in CLOSING), before its close event.
   */
  isOpen(): boolean;
  /**
   * Called once by the writer: the sink calls `wake` whenever room may be back (drain, a
   * flush callback, a pull) and `closed` when the transport closed.
   */
  attach(wake: () => void, closed: () => void): void;
  /** Ends the transport normally ({@link BoundedWriter.end}). */
  end?(): void;
  /** The writer is done with the sink: remove its listeners. */
  release?(): void;
  /**
   * Re-check room this often while a producer waits, for transports that signal none
   * (a WebSocket's `bufferedAmount`); absent or 0: the sink's own wake-ups only.
   */
  readonly pollMs?: number;
}

/** Options of {@link BoundedWriter}. */
export interface BoundedWriterOptions<C> {
  /**
   * How long the sink may stay without room (the peer stopped reading) before the writer
   * closes and calls {@link onStall}: backpressure alone would keep a reader that never reads,
   * and its queued buffers, forever. 0 or absent: never.
   */
  readonly stallTimeoutMs?: number;
  /** The binding's reaction to a stall (destroy the response, reset the call, close the socket). Called once. */
  readonly onStall?: () => void;
  /** Called once when the writer closes or ends, for whatever reason (a stream's delivery stops on it). */
  readonly onClose?: () => void;
  /**
   * Period of heartbeats: a stream that wrote nothing for a whole period of the shared
   * {@link HeartbeatClock}, and has room, gets {@link heartbeat}. 0 or absent: none.
   */
  readonly heartbeatMs?: number;
  /** The heartbeat chunk (an SSE `: ping` comment). */
  readonly heartbeat?: C;
}

const OPEN = 0;
/** Ended while the sink had no room: no more writes, but the stall timeout still guards the unread tail. */
const ENDING = 1;
const CLOSED = 2;

const ROOM: Promise<boolean> = Promise.resolve(true);
const NO_ROOM: Promise<boolean> = Promise.resolve(false);

/**
 * The one bounded writer of every streaming binding (SSE on node and on fetch, WebSocket, the
 * gRPC stream and session): producers write while the sink has room and otherwise wait in
 * {@link ready}, so a slow reader pauses the producers at their event-log cursor instead of
 * growing a queue. A sink that stays without room for `stallTimeoutMs` closes the writer and
 * calls `onStall` once; a quiet stream gets heartbeats from one clock shared by every stream
 * of the period (no timer per stream).
 *
 * Allocation: nothing per write; a promise per wait (only when the sink is full), one
 * timer while blocked.
 */
export class BoundedWriter<C> implements HeartbeatMember {
  private state = OPEN;
  /** Made when a producer first waits (an idle stream never does). */
  private waiters: Array<(room: boolean) => void> | undefined;
  private stallTimer: ReturnType<typeof setTimeout> | undefined;
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private clock: HeartbeatClock | undefined;
  private wroteSinceTick = true;
  private readonly stallTimeoutMs: number;
  private heartbeat: C | undefined;

  constructor(
    private readonly sink: DeliverySink<C>,
    private readonly options: BoundedWriterOptions<C> = {},
  ) {
    this.stallTimeoutMs = options.stallTimeoutMs ?? 0;
    sink.attach(this.wake, this.sinkClosed);
    const { heartbeatMs, heartbeat } = options;
    if (heartbeatMs !== undefined && heartbeatMs > 0 && heartbeat !== undefined) {
      this.heartbeat = heartbeat;
      this.clock = heartbeatClock(heartbeatMs);
      this.clock.join(this);
    }
    if (!sink.isOpen()) this.close();
  }

  /** The writer takes chunks: not ended, closed or stalled, and the sink is open. Cheap: asked per frame. */
  get open(): boolean {
    return this.state === OPEN && this.sink.isOpen();
  }

  /** {@link open} and the sink has room: a producer may write now. */
  hasRoom(): boolean {
    return this.state === OPEN && this.sink.isOpen() && this.sink.hasRoom();
  }

  /**
   * Writes one chunk now, whatever the room (callers that can wait use {@link ready} first;
   * terminal frames cannot). Dropped once the writer is not {@link open}. Returns true when
   * the sink still has room afterwards.
   */
  write(chunk: C): boolean {
    if (!this.open) return false;
    this.wroteSinceTick = true;
    this.sink.write(chunk);
    if (this.sink.hasRoom()) return true;
    this.armStall();
    return false;
  }

  /** Resolves true when a producer may write, false when the writer closed (now or while waiting). Never rejects. */
  ready(): Promise<boolean> {
    if (!this.open) return NO_ROOM;
    if (this.sink.hasRoom()) return ROOM;
    return new Promise((resolve) => this.wait(resolve));
  }

  /** Calls `callback` once the sink has room (true) or the writer closed (false); at once when that is so now. */
  whenRoom(callback: (room: boolean) => void): void {
    if (!this.open) callback(false);
    else if (this.sink.hasRoom()) callback(true);
    else this.wait(callback);
  }

  /**
   * Ends the transport normally (idempotent). Waiters are released with false. When the sink
   * has no room at that moment its last bytes are still unread: the stall timeout keeps
   * guarding them, so a reader that never reads again is still cut off.
   */
  end(): void {
    if (this.state !== OPEN) return;
    const blocked = this.sink.isOpen() && !this.sink.hasRoom();
    this.state = ENDING;
    this.stopTicking();
    this.release(false);
    this.sink.end?.();
    if (blocked) this.armStall();
    else this.finish();
    this.options.onClose?.();
  }

  /** Stops writing and releases every waiter with false (the transport went away, or the stream is over). Idempotent. */
  close(): void {
    if (this.state === CLOSED) return;
    const wasOpen = this.state === OPEN;
    this.stopTicking();
    this.finish();
    this.release(false);
    if (wasOpen) this.options.onClose?.();
  }

  /** @internal Called by the shared clock once per period. */
  heartbeatTick(): void {
    if (!this.wroteSinceTick && this.heartbeat !== undefined && this.hasRoom()) this.write(this.heartbeat);
    this.wroteSinceTick = false;
  }

  private wait(resolve: (room: boolean) => void): void {
    this.waiters ??= [];
    this.waiters.push(resolve);
    this.armStall();
    const pollMs = this.sink.pollMs ?? 0;
    if (pollMs > 0) this.pollTimer ??= setInterval(this.wake, pollMs);
  }

  /** The sink may have room again (drain, a flush callback, a pull, a poll). */
  private readonly wake = (): void => {
    if (this.state === CLOSED) return;
    if (!this.sink.isOpen()) {
      this.sinkClosed();
      return;
    }
    if (!this.sink.hasRoom()) return;
    this.disarmStall();
    if (this.state === ENDING) this.finish();
    else if (this.waiters !== undefined && this.waiters.length > 0) this.release(true);
  };

  private readonly sinkClosed = (): void => {
    this.close();
  };

  private armStall(): void {
    if (this.stallTimeoutMs <= 0 || this.stallTimer || this.state === CLOSED) return;
    // (Made when needed: a stream that never blocks carries no timer.)
    this.stallTimer = setTimeout(() => this.onStallTimer(), this.stallTimeoutMs);
    (this.stallTimer as { unref?: () => void }).unref?.();
  }

  private disarmStall(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = undefined;
  }

  private onStallTimer(): void {
    this.stallTimer = undefined;
    if (this.state === CLOSED || !this.sink.isOpen()) return;
    if (this.sink.hasRoom()) {
      // Room came back without a wake-up (a transport that signals none).
      this.wake();
      return;
    }
    const wasOpen = this.state === OPEN;
    this.stopTicking();
    this.finish();
    this.release(false);
    if (wasOpen) this.options.onClose?.();
    this.options.onStall?.();
  }

  private stopTicking(): void {
    this.clock?.leave(this);
    this.clock = undefined;
  }

  /** The last state: no timers, the sink let go. */
  private finish(): void {
    this.state = CLOSED;
    this.disarmStall();
    this.sink.release?.();
  }

  private release(room: boolean): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
    const waiters = this.waiters;
    if (waiters === undefined || waiters.length === 0) return;
    this.waiters = undefined;
    for (const resolve of waiters) resolve(room);
  }
}
