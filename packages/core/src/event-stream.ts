import type { StreamResponse, Task } from '@a2a-polyglot/model';
import type { EventLog, LoggedEvent, LogRead } from './event-log.js';
import { isThenable } from './serial-queue.js';
import { isSettled } from './task-state.js';

/**
 * A stream of numbered events for one response (SendStreamingMessage, SubscribeToTask).
 * Bindings read it event by event (`for await`) or batch by batch ({@link nextBatch}), and
 * must call {@link close} when their client goes away; that releases the stream at once even
 * while it waits for the next event.
 */
export interface EventStream extends AsyncIterable<LoggedEvent> {
  /**
   * Waits until at least one event is ready and returns every event ready now, in order;
   * undefined once the stream has ended (or was closed). Why batches: an agent often reports
   * many events at once, and a binding that writes them with one socket write instead of one
   * per event spends a fraction of the system calls. Do not mix with the iterator.
   */
  nextBatch(): Promise<readonly LoggedEvent[] | undefined>;
  /**
   * Optional, the callback form of {@link nextBatch} for a delivery loop that keeps no pending
   * promise while a stream is idle (an idle stream waits for its whole life): the events ready
   * now, undefined once the stream has ended, or {@link WAIT} when none is ready, after which
   * `wake` is called (once, never during this call) when a poll may make progress: an event
   * came, or the stream was closed. Where it cannot answer now (a log read that is not
   * synchronous), a promise as {@link nextBatch} returns. Do not mix with the iterator.
   */
  poll?(wake: () => void): PollResult;
  close(): void;
}

/** What {@link EventStream.poll} answers: a batch, the end (undefined), {@link WAIT}, or a pending batch. */
export type PollResult = readonly LoggedEvent[] | undefined | typeof WAIT | Promise<readonly LoggedEvent[] | undefined>;

/** {@link EventStream.poll}'s "nothing yet: you will be woken". */
export const WAIT: unique symbol = Symbol('EventStream.WAIT');

/** Provides a fresh snapshot of a task and the seq it reflects (resync after eviction). */
export type SnapshotSource = () => Promise<{ task: Task; seq: number } | undefined>;

/** Where a task stream starts. */
export interface FollowStart {
  /** Event(s) to send first: the Task snapshot (seq = the last event it folds in). */
  readonly first?: LoggedEvent;
  /** Deliver log events with seq greater than this. */
  readonly afterSeq: number;
}

/** Shared reason of streams closed normally (an abort without a reason would build a DOMException with a stack each time). */
const CLOSED = Object.freeze({ reason: 'event stream closed' });

function ignore(): void {}

/** Base of the event streams: the per-event iterator over {@link EventStream.nextBatch}. */
abstract class BatchedStream implements EventStream {
  abstract nextBatch(): Promise<readonly LoggedEvent[] | undefined>;
  abstract close(): void;

  [Symbol.asyncIterator](): AsyncIterator<LoggedEvent> {
    let batch: readonly LoggedEvent[] = [];
    let index = 0;
    return {
      next: async (): Promise<IteratorResult<LoggedEvent>> => {
        let event = batch[index];
        while (event === undefined) {
          const next = await this.nextBatch();
          if (!next) return { done: true, value: undefined };
          batch = next;
          index = 0;
          event = batch[0];
        }
        index++;
        return { done: false, value: event };
      },
      return: async (): Promise<IteratorResult<LoggedEvent>> => {
        this.close();
        return { done: true, value: undefined };
      },
    };
  }
}

/** A stream of exactly one event (a direct Message answer). */
export function singleEventStream(event: StreamResponse): EventStream {
  return new SingleEventStream({ seq: 0, event });
}

class SingleEventStream extends BatchedStream {
  private pending: LoggedEvent | undefined;

  constructor(event: LoggedEvent) {
    super();
    this.pending = event;
  }

  async nextBatch(): Promise<readonly LoggedEvent[] | undefined> {
    const event = this.pending;
    this.pending = undefined;
    return event && [event];
  }

  close(): void {
    this.pending = undefined;
  }
}

/**
 * A stream whose first read fails with `error`: a call that failed before its stream opened,
 * for clients that read every answer of a streaming method as a stream (v0.3 JSON-RPC clients
 * accept only `text/event-stream` there, so the failure becomes the stream's one event).
 */
export function failedEventStream(error: unknown): EventStream {
  return new FailedEventStream(error);
}

class FailedEventStream extends BatchedStream {
  private done = false;

  constructor(private readonly error: unknown) {
    super();
  }

  async nextBatch(): Promise<readonly LoggedEvent[] | undefined> {
    if (this.done) return undefined;
    this.done = true;
    throw this.error;
  }

  close(): void {
    this.done = true;
  }
}

/**
 * An {@link EventStream} over a hand-made source: any async iterable of events with a
 * `close()` (an async generator, say). Each batch holds one event. For tests, and for
 * executors or middleware that build streams themselves.
 */
export function eventStreamFrom(source: AsyncIterable<LoggedEvent> & { close(): void }): EventStream {
  return new IterableEventStream(source);
}

class IterableEventStream extends BatchedStream {
  private readonly iterator: AsyncIterator<LoggedEvent>;

  constructor(private readonly source: AsyncIterable<LoggedEvent> & { close(): void }) {
    super();
    this.iterator = source[Symbol.asyncIterator]();
  }

  async nextBatch(): Promise<readonly LoggedEvent[] | undefined> {
    const next = await this.iterator.next();
    return next.done ? undefined : [next.value];
  }

  close(): void {
    this.source.close();
    // Let a generator suspended at a yield run its cleanup (what `break` in for-await does).
    Promise.resolve()
      .then(() => this.iterator.return?.())
      .catch(() => undefined);
  }
}

/**
 * `source` with every event passed through `map` (same batches, same close). Why: a 1.1 call
 * reads the same log as everyone else, with the task generation added to each event; the
 * copy is made for that reader only.
 */
export function mappedEventStream(source: EventStream, map: (event: LoggedEvent) => LoggedEvent): EventStream {
  return new MappedEventStream(source, map);
}

class MappedEventStream extends BatchedStream {
  constructor(
    private readonly source: EventStream,
    private readonly map: (event: LoggedEvent) => LoggedEvent,
  ) {
    super();
  }

  async nextBatch(): Promise<readonly LoggedEvent[] | undefined> {
    const batch = await this.source.nextBatch();
    return batch?.map(this.map);
  }

  poll(wake: () => void): PollResult {
    const source = this.source;
    if (!source.poll) return this.nextBatch();
    const next = source.poll(wake);
    if (next === WAIT || next === undefined) return next;
    if (isThenable(next)) return next.then(this.mapBatch);
    return next.map(this.map);
  }

  private readonly mapBatch = (batch: readonly LoggedEvent[] | undefined): readonly LoggedEvent[] | undefined => batch?.map(this.map);

  close(): void {
    this.source.close();
  }
}

/**
 * Follows a task's log from a cursor. Slow readers cost nothing but a cursor; a reader that
 * falls behind the log's retention gets a fresh Task snapshot in place of the events it
 * missed (overflow policy "resync") and continues from there. The stream ends after the
 * event that moves the task into a terminal or interrupted state (spec §11.7).
 */
export function followTask(log: EventLog, taskId: string, start: FollowStart, snapshot: SnapshotSource, signal?: AbortSignal): EventStream {
  return new TaskFollower(log, taskId, start, snapshot, signal);
}

class TaskFollower extends BatchedStream {
  private cursor: number;
  private first: LoggedEvent | undefined;
  private ended = false;
  /** True once any event went out (a failing log is then reported as is). */
  private emitted = false;
  /** Aborts a pending wait on the log; made for the first wait (streams whose events are all ready never wait). */
  private waitAbort: AbortController | undefined;
  /** Resolves the pending wait of a log with {@link EventLog.addWaiter}. */
  private resolveWait: (() => void) | undefined;
  /** Wakes a pending {@link waitForNext} (woken by the log, or closed); made for the first such wait (a polled stream never makes it). */
  private onWake: (() => void) | undefined;
  /** The `wake` of a {@link poll} that answered WAIT, while it may still be registered with the log. */
  private pollWake: (() => void) | undefined;
  /** The caller's signal has our abort listener (added on the first wait). */
  private listening = false;

  constructor(
    private readonly log: EventLog,
    private readonly taskId: string,
    start: FollowStart,
    private readonly snapshot: SnapshotSource,
    private readonly signal: AbortSignal | undefined,
  ) {
    super();
    this.cursor = start.afterSeq;
    this.first = start.first;
    if (signal?.aborted) this.ended = true;
  }

  /** (Reads directly, with no wrapping async frame: an idle stream keeps one suspended read for its whole life.) */
  async nextBatch(): Promise<readonly LoggedEvent[] | undefined> {
    // The caller's signal is listened to only while waiting; between waits it is checked here.
    if (this.signal?.aborted) this.close();
    const out: LoggedEvent[] = [];
    if (this.first && !this.ended) {
      out.push(this.first);
      this.first = undefined;
    }
    while (!this.ended) {
      if (this.signal?.aborted) {
        this.close();
        break;
      }
      let read: LogRead;
      try {
        const pending = this.log.readAfter(this.taskId, this.cursor);
        read = isThenable(pending) ? await pending : pending;
      } catch (error) {
        // The log failed before this stream said anything (it went down after the send was
        // accepted): name the task first, from the store, so the client learns its id and
        // is not tempted to send again; the next read reports the failure.
        if (this.emitted || out.length > 0) throw error;
        const snap = await this.snapshot().catch(() => undefined);
        if (!snap || this.ended) throw error;
        this.cursor = snap.seq;
        this.emitted = true;
        const state = snap.task.status?.state;
        if (state !== undefined && isSettled(state)) this.finish();
        return [{ seq: snap.seq, event: { payload: { $case: 'task', value: snap.task } } }];
      }
      if (this.ended) break;
      if (read.gap) {
        const snap = await this.snapshot();
        if (!snap || this.ended) {
          this.finish();
          break;
        }
        this.cursor = snap.seq;
        out.push({ seq: snap.seq, event: { payload: { $case: 'task', value: snap.task } } });
        const state = snap.task.status?.state;
        if (state !== undefined && isSettled(state)) this.finish();
        return this.emit(out);
      }
      if (this.take(read.events, out)) return this.emit(out);
      if (out.length > 0) return this.emit(out);
      await this.waitForNext();
    }
    return out.length > 0 ? this.emit(out) : undefined;
  }

  /**
   * Moves `events` into `out` (and the cursor past them) up to and with the first that settles
   * the task, which finishes the stream: true then. One rule for both read paths.
   */
  private take(events: readonly LoggedEvent[], out: LoggedEvent[]): boolean {
    for (const logged of events) {
      this.cursor = logged.seq;
      out.push(logged);
      const payload = logged.event.payload;
      const state = payload?.$case === 'statusUpdate' ? payload.value.status?.state : undefined;
      if (state !== undefined && isSettled(state)) {
        this.finish();
        return true;
      }
    }
    return false;
  }

  /**
   * {@link nextBatch} without a promise, for a log that answers reads at once and calls its
   * waiters back ({@link EventLog.addWaiter}, the in-memory one): an idle stream then waits
   * with nothing but the log's reference to `wake`. The first read (the snapshot goes first),
   * a gap, a failing or asynchronous read, and other logs take the {@link nextBatch} path.
   */
  poll(wake: () => void): PollResult {
    const log = this.log;
    if (this.first || !log.addWaiter || !log.removeWaiter) return this.nextBatch();
    this.pollWake = undefined;
    if (this.signal?.aborted) this.close();
    for (;;) {
      if (this.ended) return undefined;
      let read: LogRead | Promise<LogRead>;
      try {
        read = log.readAfter(this.taskId, this.cursor);
      } catch {
        // The promise path reads again and reports the failure as it does.
        return this.nextBatch();
      }
      if (isThenable(read)) {
        read.then(undefined, ignore);
        return this.nextBatch();
      }
      if (read.gap) return this.nextBatch();
      if (read.events.length > 0) {
        const out: LoggedEvent[] = [];
        this.take(read.events, out);
        return this.emit(out);
      }
      this.listenToOuterSignal();
      if (this.ended) return undefined;
      if (log.addWaiter(this.taskId, this.cursor, wake)) {
        this.pollWake = wake;
        return WAIT;
      }
      // An event came between the read and the wait: read again.
    }
  }

  /** Notes that events went out (a failing log is then reported as is) and passes them on. */
  private emit(out: LoggedEvent[]): LoggedEvent[] {
    this.emitted = true;
    return out;
  }

  close(): void {
    if (this.ended) return;
    this.finish();
    this.waitAbort?.abort(CLOSED);
    this.stopWaiting();
  }

  /**
   * Waits for the next event after the cursor (or close). A log that can call back
   * ({@link EventLog.addWaiter}) is waited on with one set entry and one promise; others
   * through `waitFor` and an AbortController made on the first wait.
   */
  private waitForNext(): Promise<void> {
    const log = this.log;
    if (!log.addWaiter || !log.removeWaiter) return log.waitFor(this.taskId, this.cursor, this.waitSignal());
    this.listenToOuterSignal();
    this.onWake ??= () => {
      const resolve = this.resolveWait;
      this.resolveWait = undefined;
      resolve?.();
    };
    if (this.ended || !log.addWaiter(this.taskId, this.cursor, this.onWake)) return Promise.resolve();
    return new Promise<void>((resolve) => (this.resolveWait = resolve));
  }

  private stopWaiting(): void {
    const pollWake = this.pollWake;
    if (pollWake) {
      this.pollWake = undefined;
      this.log.removeWaiter?.(this.taskId, pollWake);
      pollWake();
    }
    const onWake = this.onWake;
    if (!this.resolveWait || !onWake) return;
    this.log.removeWaiter?.(this.taskId, onWake);
    onWake();
  }

  private finish(): void {
    this.ended = true;
    this.signal?.removeEventListener('abort', this.onOuterAbort);
  }

  private waitSignal(): AbortSignal {
    if (!this.waitAbort) {
      this.waitAbort = new AbortController();
      this.listenToOuterSignal();
    }
    return this.waitAbort.signal;
  }

  /** From the first wait on, the caller's signal closes the stream (added once). */
  private listenToOuterSignal(): void {
    if (this.listening) return;
    this.listening = true;
    this.signal?.addEventListener('abort', this.onOuterAbort, { once: true });
    if (this.signal?.aborted) this.close();
  }

  private readonly onOuterAbort = (): void => this.close();
}
