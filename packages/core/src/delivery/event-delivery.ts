import type { TaskState } from '@a2a-polyglot/model';
import { A2AError } from '../a2a-error.js';
import { DELIVERY_TURN_FRAMES, nextTurn } from '../delivery-pace.js';
import type { LoggedEvent } from '../event-log.js';
import { type EventStream, WAIT } from '../event-stream.js';
import { isThenable } from '../serial-queue.js';
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

/** Where {@link EventDelivery}'s loop resumes after a wait (each step also runs the ones after it). */
const TURN = 0;
const OPEN = 1;
const ROOM = 2;
const PULL = 3;
const SEND = 4;
type Step = typeof TURN | typeof OPEN | typeof ROOM | typeof PULL | typeof SEND;

/** What the loop waits on, if anything (so {@link EventDelivery.stop} knows what to cut short). */
const RUNNING = 0;
const AWAIT_TURN = 1;
const AWAIT_ROOM = 2;
const AWAIT_BATCH = 3;
const FINISHED = 4;

/**
 * The one stream-delivery loop of every streaming binding (SSE on node and on fetch,
 * WebSocket, the gRPC stream and session): pulls every ready event of an {@link EventStream}
 * at once, encodes each to a frame, hands them to a {@link BoundedWriter} in groups, and pulls
 * again only when the writer has room, so backpressure reaches the event log (a slow reader
 * costs a cursor, not memory). The rest of a batch that met a full writer is carried over.
 *
 * Pacing (the rule of {@link DELIVERY_TURN_FRAMES}): no frame is encoded once the writer is closing or the
 * delivery stopped, and the event loop turns at least every `DELIVERY_TURN_FRAMES` frames.
 * {@link stop} cuts a pending pull short at once, so a stream that is slow to honour close()
 * cannot keep the delivery alive.
 *
 * The loop is driven by callbacks, not by a suspended async frame: a stream that can be polled
 * ({@link EventStream.poll}) waits for its next event with nothing pending but the stream's own
 * registration (an idle stream waits for its whole life, and a suspended frame with its pull
 * promise and wakers cost about 1 KB of heap per stream); others are pulled with `nextBatch`.
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
  /** What the loop waits on ({@link RUNNING} while it runs, {@link FINISHED} once done). */
  private waiting = RUNNING;
  /** Counts the pulls, so a batch that arrives after {@link stop} cut its pull short is ignored. */
  private pulls = 0;
  /** A wake-up of a polled stream is queued ({@link onReady}). */
  private woken = false;
  /** Frames handed to the writer since the event loop last turned (the pace). */
  private sinceTurn = 0;
  /** The rest of a batch that met a full writer, and where it goes on. */
  private carry: readonly LoggedEvent[] | undefined;
  private at = 0;
  /** The group being built; reused (sinks do not keep it). */
  private readonly group: F[] = [];
  private readonly groupLimit: number;
  private resolveRun: ((result: DeliveryResult) => void) | undefined;

  constructor(
    private readonly stream: EventStream,
    private readonly writer: BoundedWriter<readonly F[]>,
    private readonly options: EventDeliveryOptions<F>,
  ) {
    this.groupLimit = options.groupLimit ?? DELIVERY_GROUP_SIZE;
  }

  /** Stops the delivery (client gone, cancel, shutdown): closes the stream and cuts a pending pull short. Idempotent. */
  readonly stop = (): void => {
    if (this.stopped) return;
    this.stopped = true;
    this.stream.close();
    // A pending pull or wait for room ends now; a pending turn ends when it comes (not open).
    if (this.waiting === AWAIT_BATCH || this.waiting === AWAIT_ROOM) this.finish();
  };

  /** Counts frames the binding wrote itself before or between events (a start frame), for the pace. */
  sentOwn(frames = 1): void {
    this.sinceTurn += frames;
  }

  /** Delivers until the stream ends, fails or is stopped. Never rejects. */
  run(): Promise<DeliveryResult> {
    const { signal, shutdownSignal } = this.options;
    const done = new Promise<DeliveryResult>((resolve) => {
      this.resolveRun = resolve;
    });
    signal?.addEventListener('abort', this.stop, { once: true });
    shutdownSignal?.addEventListener('abort', this.stop, { once: true });
    if (signal?.aborted || shutdownSignal?.aborted) this.stop();
    this.loop(TURN);
    return done;
  }

  /** The pace's "open": the delivery goes on and the writer (and the binding) take frames. */
  private get open(): boolean {
    return !this.stopped && this.writer.open && (this.options.isOpen?.() ?? true);
  }

  /**
   * The loop, from `step` on, until it has to wait (a turn of the event loop, room, the next
   * batch) or is done. A wait's callback resumes it where it stopped.
   */
  private loop(from: Step): void {
    if (this.waiting === FINISHED) return;
    this.waiting = RUNNING;
    let step: Step = from;
    try {
      for (;;) {
        if (step <= TURN && this.sinceTurn >= DELIVERY_TURN_FRAMES) {
          this.sinceTurn = 0;
          this.waiting = AWAIT_TURN;
          nextTurn(this.afterTurn);
          return;
        }
        if (step <= OPEN && !this.open) {
          this.finish();
          return;
        }
        if (step <= ROOM && !this.writer.hasRoom()) {
          this.waiting = AWAIT_ROOM;
          this.writer.whenRoom(this.onRoom);
          return;
        }
        if (step <= PULL && this.carry === undefined) {
          const pull = ++this.pulls;
          const stream = this.stream;
          const next = stream.poll ? stream.poll(this.onReady) : stream.nextBatch();
          if (next === WAIT) {
            this.waiting = AWAIT_BATCH;
            return;
          }
          if (isThenable(next)) {
            this.waiting = AWAIT_BATCH;
            next.then(
              (batch) => this.onBatch(pull, batch),
              (error: unknown) => this.onPullFailed(pull, error),
            );
            return;
          }
          if (next === undefined) {
            this.ended();
            return;
          }
          this.carry = next;
          this.at = 0;
        }
        const carry = this.carry as readonly LoggedEvent[];
        this.at = this.sendWhileRoom(carry, this.at);
        if (this.at >= carry.length) this.carry = undefined;
        step = TURN;
      }
    } catch (thrown) {
      this.fail(thrown);
    }
  }

  private readonly afterTurn = (): void => {
    if (this.waiting === AWAIT_TURN) this.loop(OPEN);
  };

  private readonly onRoom = (room: boolean): void => {
    if (this.waiting !== AWAIT_ROOM) return;
    if (!room || !this.open) this.finish();
    else this.loop(PULL);
  };

  /**
   * A polled stream may have its next batch: poll again, in a microtask. Why not at once: the
   * log wakes its readers inside the agent's report, and an agent that reports a burst of
   * events in one go must find them all in the log when the stream reads (one write for the
   * burst, not one per event).
   */
  private readonly onReady = (): void => {
    if (this.waiting !== AWAIT_BATCH || this.woken) return;
    this.woken = true;
    queueMicrotask(this.afterWake);
  };

  private readonly afterWake = (): void => {
    this.woken = false;
    if (this.waiting === AWAIT_BATCH) this.loop(PULL);
  };

  private onBatch(pull: number, batch: readonly LoggedEvent[] | undefined): void {
    if (this.waiting !== AWAIT_BATCH || pull !== this.pulls) return;
    this.waiting = RUNNING;
    if (batch === undefined) {
      this.ended();
      return;
    }
    this.carry = batch;
    this.at = 0;
    this.loop(SEND);
  }

  private onPullFailed(pull: number, error: unknown): void {
    if (this.waiting !== AWAIT_BATCH || pull !== this.pulls) return;
    this.fail(error);
  }

  /** The stream ran out: done, unless the delivery was stopped first. */
  private ended(): void {
    if (!this.stopped) this.end = 'done';
    this.finish();
  }

  private fail(thrown: unknown): void {
    if (this.waiting === FINISHED) return;
    this.group.length = 0;
    this.end = 'failed';
    this.error = A2AError.from(thrown);
    this.finish();
  }

  /** The delivery is over: listeners off, the stream closed, {@link run} resolved. Once. */
  private finish(): void {
    if (this.waiting === FINISHED) return;
    this.waiting = FINISHED;
    this.carry = undefined;
    const { signal, shutdownSignal } = this.options;
    signal?.removeEventListener('abort', this.stop);
    shutdownSignal?.removeEventListener('abort', this.stop);
    try {
      this.stream.close();
    } finally {
      const resolve = this.resolveRun;
      this.resolveRun = undefined;
      resolve?.(this);
    }
  }

  /**
   * Encodes and writes `events` from index `at` in groups while the writer has room and no
   * turn of the event loop is due; returns the index of the first event not sent.
   */
  private sendWhileRoom(events: readonly LoggedEvent[], at: number): number {
    const { group, writer, groupLimit } = this;
    const { encode, frameSize, onFirst } = this.options;
    let size = 0;
    while (at < events.length && this.sinceTurn < DELIVERY_TURN_FRAMES) {
      if (!this.open) {
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
      this.sinceTurn++;
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
