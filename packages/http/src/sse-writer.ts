import type { ServerResponse } from 'node:http';
import { heartbeatClock, type HeartbeatClock, type HeartbeatMember } from './heartbeat-clock.js';

/** Options of {@link SseWriter}. */
export interface SseWriterOptions {
  /**
   * Idle time after which a `: ping` comment is written, so proxies and clients do not drop a
   * quiet stream (after one to two periods of silence). 0 disables heartbeats. Default 15000.
   */
  readonly heartbeatMs?: number;
  /** Extra response headers (for example `A2A-Extensions`, CORS). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * How long a write may wait for the socket to drain (the client stopped reading) before the
   * response is destroyed: backpressure alone would keep a reader that never reads, and its
   * queued socket buffers, forever. The stream then closes (its event-log cursor is released);
   * the task goes on and the client can resume with `Last-Event-ID`. 0 disables. Default
   * {@link DEFAULT_SSE_STALL_TIMEOUT_MS} (30 s, as the WebSocket binding).
   */
  readonly stallTimeoutMs?: number;
  /** Called once when the stall timeout ended the stream (logging, metrics). */
  readonly onStall?: () => void;
}

/** Default of {@link SseWriterOptions.stallTimeoutMs}: 30 s, like the WebSocket binding. */
export const DEFAULT_SSE_STALL_TIMEOUT_MS = 30_000;

/** Fields of one SSE event besides its data. */
export interface SseEventFields {
  /** `id:` line: the event's seq, which clients send back as `Last-Event-ID` to resume. */
  readonly id?: number | string;
  /** `event:` line; absent means the default `message` event. */
  readonly event?: string;
}

/** The SSE response headers both bindings send (spec §3.5, a2a-js practice). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/**
 * One SSE event as text: `id:` and `event:` lines when given, then `data:`, then the blank
 * line. Data containing line breaks is split over several `data:` lines, as SSE requires
 * (one-line JSON, the usual case, is not scanned twice).
 */
export function sseFrame(data: string, id?: number | string, event?: string): string {
  let frame = id === undefined ? '' : `id: ${id}\n`;
  if (event !== undefined) frame += `event: ${event}\n`;
  if (data.indexOf('\n') < 0 && data.indexOf('\r') < 0) return `${frame}data: ${data}\n\n`;
  for (const line of data.split(/\r\n|\r|\n/)) frame += `data: ${line}\n`;
  return `${frame}\n`;
}

/**
 * Writes a `text/event-stream` response with backpressure and heartbeats.
 *
 * Why the writes are awaited: `res.write` buffers without limit when the client reads slower
 * than we produce. {@link event} resolves only once the socket accepted the data (after
 * `'drain'` when the buffer is over its high-water mark), so the caller pulls the next event
 * from the event log only when the client can take it: a slow client costs a log cursor,
 * not server memory. Heartbeat comments are skipped while the buffer is full. A client that
 * does not drain the socket within `stallTimeoutMs` has its response destroyed, also after
 * {@link end} (the response's last bytes would otherwise wait for it forever).
 */
export class SseWriter implements HeartbeatMember {
  private readonly heartbeatMs: number;
  private readonly stallTimeoutMs: number;
  private readonly onStall: (() => void) | undefined;
  private stallTimer: ReturnType<typeof setTimeout> | undefined;
  /** The shared clock this stream is on (from its first write until it closes). */
  private heartbeat: HeartbeatClock | undefined;
  private wroteSinceTick = false;
  /** Something was written (the headers went with it). */
  private wroteAny = false;
  private drainWaiters: Array<() => void> = [];
  private closeListeners: Array<() => void> = [];
  private blocked = false;
  private isClosed = false;

  constructor(
    private readonly res: ServerResponse,
    options: SseWriterOptions = {},
  ) {
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_SSE_STALL_TIMEOUT_MS;
    this.onStall = options.onStall;
    res.writeHead(200, { ...SSE_HEADERS, ...options.headers });
    // The headers leave with the first event (one packet, one wake-up of the client instead
    // of two), or on the next turn when no event is ready by then.
    setImmediate(() => {
      if (!this.isClosed && !this.wroteAny) res.flushHeaders();
    });
    res.on('drain', this.onDrain);
    res.on('close', this.onResponseClose);
    if (res.destroyed) this.handleClose();
    this.armHeartbeat();
  }

  /**
   * True once the client went away or {@link end} was called: further writes are dropped.
   * Also true from the moment the response or its socket is destroyed, before their close
   * event, so that a stream stops at once instead of encoding frames nobody will get.
   */
  get closed(): boolean {
    return this.isClosed || this.res.destroyed || this.res.socket?.destroyed === true;
  }

  /** Bytes accepted by the response but not yet handed to the socket (tests, metrics). */
  get bufferedBytes(): number {
    return this.res.writableLength;
  }

  /** Calls `listener` once when the stream closes (client gone or ended); at once if already closed. */
  onClose(listener: () => void): void {
    if (this.isClosed) listener();
    else this.closeListeners.push(listener);
  }

  /**
   * Writes one event: `id:` and `event:` lines when given, then `data:`. Data containing line
   * breaks is split over several `data:` lines, as SSE requires. Resolves once the data is
   * accepted by the socket (or the client is gone); resolves to false if nothing was written.
   */
  event(data: string, fields: SseEventFields = {}): Promise<boolean> {
    return this.write(sseFrame(data, fields.id, fields.event));
  }

  /**
   * Writes text that is already SSE framing (several frames from {@link sseFrame}, say) with
   * one socket write; same backpressure as {@link event}.
   */
  raw(frames: string): Promise<boolean> {
    return this.write(frames);
  }

  /** Writes a comment line (`: text`), which SSE clients ignore; used for heartbeats. */
  comment(text: string): Promise<boolean> {
    return this.write(`: ${text}\n\n`);
  }

  /** Ends the response (normal end of stream). Idempotent. */
  end(): void {
    if (this.isClosed) return;
    this.handleClose();
    if (!this.res.writableEnded) this.res.end();
    if (this.blocked && !this.res.writableFinished) {
      // Still unread: the stall timer (armed by the blocked write) destroys the response
      // unless the client drains it; until then the 'drain' and 'close' hooks stay on.
      this.res.on('drain', this.onDrain);
      this.res.once('close', () => this.disarmStall());
    }
  }

  private async write(chunk: string): Promise<boolean> {
    while (this.blocked && !this.isClosed) await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
    if (this.isClosed) return false;
    const flushed = this.res.write(chunk);
    this.wroteAny = true;
    this.armHeartbeat();
    if (!flushed) {
      this.blocked = true;
      this.armStall();
      await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
    }
    return !this.isClosed;
  }

  /**
   * Joins the shared {@link HeartbeatClock} of this period once: a write only sets
   * {@link wroteSinceTick}, and a tick pings only if nothing was written since the previous
   * tick (so a quiet stream gets a comment after one to two heartbeat periods). Re-arming a
   * timer on every write cost more than writing the event, and a timer per stream cost more
   * memory than the rest of an idle stream's writer.
   */
  private armHeartbeat(): void {
    if (this.heartbeatMs <= 0 || this.isClosed) return;
    // Set on joining too: the clock's first tick may come at once, and must not ping yet.
    this.wroteSinceTick = true;
    if (this.heartbeat) return;
    this.heartbeat = heartbeatClock(this.heartbeatMs);
    this.heartbeat.join(this);
  }

  /** @internal Called by the shared clock once per period. */
  heartbeatTick(): void {
    if (this.isClosed) return;
    if (!this.wroteSinceTick && !this.blocked) void this.comment('ping');
    this.wroteSinceTick = false;
  }

  private readonly onDrain = (): void => {
    this.blocked = false;
    this.disarmStall();
    this.releaseWaiters();
  };

  private armStall(): void {
    if (this.stallTimeoutMs <= 0 || this.stallTimer) return;
    // (Closures made here, when needed: an idle stream that never blocks carries none.)
    this.stallTimer = setTimeout(() => this.onStallTimer(), this.stallTimeoutMs);
    this.stallTimer.unref();
  }

  private disarmStall(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = undefined;
  }

  private onStallTimer(): void {
    this.stallTimer = undefined;
    if (!this.blocked || this.res.destroyed) return;
    this.handleClose();
    this.res.destroy();
    this.onStall?.();
  }

  private readonly onResponseClose = (): void => {
    this.disarmStall();
    this.handleClose();
  };

  private handleClose(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.heartbeat?.leave(this);
    this.heartbeat = undefined;
    if (!this.blocked) this.disarmStall();
    this.res.off('drain', this.onDrain);
    this.res.off('close', this.onResponseClose);
    this.releaseWaiters();
    const listeners = this.closeListeners;
    this.closeListeners = [];
    for (const listener of listeners) listener();
  }

  private releaseWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
