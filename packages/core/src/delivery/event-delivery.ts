import type { TaskState } from '@a2a-polyglot/model';
import { A2AError } from '../a2a-error.js';
import { DeliveryPace } from '../delivery-pace.js';
import type { LoggedEvent } from '../event-log.js';
import type { EventStream } from '../event-stream.js';
import { eventState } from '../task-events.js';
import type { BoundedWriter } from './bounded-writer.js';

/** How a binding turns events into frames for {@link EventDelivery}. */
export interface EventDeliveryOptions<F> {
  /** One event as one frame of the binding (SSE text, a WebSocket JSON text, a proto message). */
  readonly encode: (logged: LoggedEvent) => F;
  /**
   * The size of a frame, for grouping: frames are handed to the writer in groups of up to
   * {@link groupLimit} of it (one socket write each). Absent: every frame is its own group
   * (gRPC, whose messages are written one by one against a bound of unflushed messages).
   */
  readonly frameSize?: (frame: F) => number;
  /** Largest group, in {@link frameSize} units. Default {@link DELIVERY_GROUP_SIZE}. */
  readonly groupLimit?: number;
  /** Called once, before the first event is encoded (gRPC sends the first seq as metadata then). */
  readonly onFirst?: (logged: LoggedEvent) => void;
  /** A condition of the binding's own besides the writer's (a session operation that finished). Checked per frame. */
  readonly isOpen?: () => boolean;
  /** Aborting it stops the delivery (the client went away). */
  readonly signal?: AbortSignal;
  /** Aborting it stops the delivery too (server shutdown; a long-lived signal, one listener per open stream). */
  readonly shutdownSignal?: AbortSignal;
}

/**
 * Largest group of frames handed to the sink with one write, in characters or bytes: an
 * agent that reports a hundred chunks at once costs one system call, not a hundred, and no
 * write holds a whole large batch.
 */
export const DELIVERY_GROUP_SIZE = 64 * 1024;

/** How a delivery ended, and its resume cursor. */
export interface DeliveryResult {
  /** `done`: the event stream ended; `stopped`: {@link EventDelivery.stop}, a signal, or the writer closed; `failed`: see {@link error}. */
  readonly end: 'done' | 'stopped' | 'failed';
  /** The failure (of the event stream or of encoding), when `end` is `failed`. */
  readonly error: A2AError | undefined;
  /** Seq of the first event delivered (gRPC's `a2a-stream-first-seq`). */
  readonly firstSeq: number | undefined;
  /** Seq of the last event delivered: where a client resumes. */
  readonly lastSeq: number | undefined;
  /** The last task state an event reported (`eventState`). */
  readonly lastState: TaskState | undefined;
}

/**
 * The one stream-delivery loop of every streaming binding (SSE on node and on fetch,
 * WebSocket, the gRPC stream and session): pulls every ready event of an {@link EventStream}
 * at once, encodes each to a frame, hands them to a {@link BoundedWriter} in groups, and pulls
 * again only when the writer has room, so backpressure reaches the event log (a slow reader
 * costs a cursor, not memory). The rest of a batch that met a full writer is carried over.
 *
 * Pacing ({@link DeliveryPace}): no frame is encoded once the writer is closing or the
 * delivery stopped, and the event loop turns at least every `DELIVERY_TURN_FRAMES` frames.
 * {@link stop} wakes a pending pull at once (one waker per pull rather than a race against a
 * long-lived promise, which would keep a reaction per batch alive for the whole stream), so a
 * stream that is slow to honour close() cannot keep the delivery alive.
 *
 * {@link run} resolves with the {@link DeliveryResult} (the object itself), never rejects,
 * and always closes the stream; the binding writes its end or error frame from it.
 */
export class EventDelivery<F> implements DeliveryResult {
  end: DeliveryResult['end'] = 'stopped';
  error: A2AError | undefined;
  firstSeq: number | undefined;
  lastSeq: number | undefined;
  lastState: TaskState | undefined;
  private stopped = false;
  /** Resolves the pending pull with undefined on {@link stop}. */
  private waker: ((value: undefined) => void) | undefined;
  /** Resolves the pending wait for room with false on {@link stop} (the writer may be shared, so it is not closed). */
  private roomWaker: ((room: boolean) => void) | undefined;
  private readonly pace: DeliveryPace;
  /** The group being built; reused (sinks do not keep it). */
  private readonly group: F[] = [];
  private readonly groupLimit: number;

  constructor(
    private readonly stream: EventStream,
    private readonly writer: BoundedWriter<readonly F[]>,
    private readonly options: EventDeliveryOptions<F>,
  ) {
    this.groupLimit = options.groupLimit ?? DELIVERY_GROUP_SIZE;
    const isOpen = options.isOpen;
    this.pace = new DeliveryPace(isOpen ? () => !this.stopped && writer.open && isOpen() : () => !this.stopped && writer.open);
  }

  /** Stops the delivery (client gone, cancel, shutdown): closes the stream and wakes a pending pull. Idempotent. */
  readonly stop = (): void => {
    if (this.stopped) return;
    this.stopped = true;
    this.stream.close();
    this.waker?.(undefined);
    this.roomWaker?.(false);
  };

  /** Counts frames the binding wrote itself before or between events (a start frame), for the pace. */
  sentOwn(frames = 1): void {
    this.pace.sent(frames);
  }

  /** Delivers until the stream ends, fails or is stopped. Never rejects. */
  async run(): Promise<DeliveryResult> {
    const { signal, shutdownSignal } = this.options;
    signal?.addEventListener('abort', this.stop, { once: true });
    shutdownSignal?.addEventListener('abort', this.stop, { once: true });
    if (signal?.aborted || shutdownSignal?.aborted) this.stop();
    const { pace, writer } = this;
    try {
      let carry: readonly LoggedEvent[] | undefined;
      let at = 0;
      for (;;) {
        if (pace.due) await pace.turn();
        if (!pace.open) break;
        if (!writer.hasRoom() && (!(await this.room()) || !pace.open)) break;
        if (carry === undefined) {
          const batch = await this.pull();
          this.waker = undefined;
          if (batch === undefined) {
            if (!this.stopped) this.end = 'done';
            break;
          }
          carry = batch;
          at = 0;
        }
        at = this.sendWhileRoom(carry, at);
        if (at >= carry.length) carry = undefined;
      }
    } catch (thrown) {
      this.group.length = 0;
      this.end = 'failed';
      this.error = A2AError.from(thrown);
    } finally {
      signal?.removeEventListener('abort', this.stop);
      shutdownSignal?.removeEventListener('abort', this.stop);
      this.stream.close();
    }
    return this;
  }

  private async room(): Promise<boolean> {
    const room = await new Promise<boolean>((resolve) => {
      this.roomWaker = resolve;
      this.writer.whenRoom(resolve);
    });
    this.roomWaker = undefined;
    return room;
  }

  private pull(): Promise<readonly LoggedEvent[] | undefined> {
    const pending = this.stream.nextBatch();
    // (`then(resolve, reject)` also handles a late rejection after we stopped: no extra catch.)
    return new Promise<readonly LoggedEvent[] | undefined>((resolve, reject) => {
      this.waker = resolve;
      pending.then(resolve, reject);
    });
  }

  /**
   * Encodes and writes `events` from index `at` in groups while the writer has room and no
   * turn of the event loop is due; returns the index of the first event not sent.
   */
  private sendWhileRoom(events: readonly LoggedEvent[], at: number): number {
    const { group, pace, writer, groupLimit } = this;
    const { encode, frameSize, onFirst } = this.options;
    let size = 0;
    while (at < events.length && !pace.due) {
      if (!pace.open) {
        group.length = 0;
        return at;
      }
      const logged = events[at++] as LoggedEvent;
      if (this.firstSeq === undefined) {
        this.firstSeq = logged.seq;
        onFirst?.(logged);
      }
      const frame = encode(logged);
      this.lastSeq = logged.seq;
      const state = eventState(logged.event);
      if (state !== undefined) this.lastState = state;
      group.push(frame);
      pace.sent();
      size += frameSize ? frameSize(frame) : groupLimit;
      if (size < groupLimit) continue;
      size = 0;
      const room = writer.write(group);
      group.length = 0;
      if (!room) return at;
    }
    if (group.length > 0) {
      writer.write(group);
      group.length = 0;
    }
    return at;
  }
}
