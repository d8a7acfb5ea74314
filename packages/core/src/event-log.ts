import type { StreamResponse } from '@a2a-polyglot/model';

/**
 * One event of a task, numbered. `seq` starts at 1 for the task's creation event and grows by
 * one per event, so a subscriber that remembers the last `seq` it saw can resume exactly
 * after it (SSE `Last-Event-ID`, the WebSocket/gRPC resume field).
 */
export interface LoggedEvent {
  readonly seq: number;
  readonly event: StreamResponse;
}

/** Result of {@link EventLog.readAfter}. */
export interface LogRead {
  /** Events with `seq` greater than the cursor, in order (possibly empty). */
  readonly events: readonly LoggedEvent[];
  /**
   * True when events right after the cursor are no longer held (evicted by the size bound or
   * retention): the reader cannot continue gap-free and must resynchronise from a snapshot.
   */
  readonly gap: boolean;
}

/**
 * The per-task numbered event log. Every stream, resume and push delivery reads from it, so
 * a slow reader costs a cursor, not a buffer: memory is bounded by the log, whatever the
 * number of subscribers. The in-memory implementation serves one process; a Redis Streams
 * implementation (same contract) serves many.
 *
 * Logs are addressed by a key the core builds with {@link taskLogKey} (tenant + task id), so
 * the tenant scopes the log as it scopes the store.
 */
export interface EventLog {
  /**
   * Appends an event and returns its sequence number. Appends for one task are serial. With
   * `seq` (the writer numbers its events: durable mode numbers them by the store version it
   * won), the event is held under that number; an append whose `seq` is not above the last
   * one held is dropped (a concurrent writer got there first) and 0 is returned. A `seq` past
   * the next one leaves a hole that readers see as a gap.
   *
   * May answer synchronously (the in-memory log does): the writer then applies the task's
   * next event in the same turn, with no promise per event.
   */
  append(key: string, event: StreamResponse, seq?: number): number | Promise<number>;
  /**
   * Optional: appends events the writer numbered (`seq` ascending) as one atomic step, each
   * under the rules of `append` with a `seq`. Durable mode saves a burst of events (an agent
   * reporting submitted → working → artifact → completed in one turn) with one store write,
   * and logs them with this in one round trip; a log without it gets them one by one. With
   * `seal`, the last event is terminal and the log is sealed in the same step, as `seal` would
   * (the writer then does not call `seal`).
   */
  appendMany?(key: string, events: readonly LoggedEvent[], options?: { readonly seal?: SealOptions }): void | Promise<void>;
  /** Events after `afterSeq` (at most `max`). May answer synchronously, as the in-memory log does. */
  readAfter(key: string, afterSeq: number, max?: number): LogRead | Promise<LogRead>;
  /** Highest sequence number written for the task (0 if none). */
  lastSeq(key: string): Promise<number>;
  /** Resolves once an event after `afterSeq` exists, or when `signal` aborts (never rejects). */
  waitFor(key: string, afterSeq: number, signal: AbortSignal): Promise<void>;
  /**
   * Optional, the cheap form of {@link waitFor} for a log that can call its readers back
   * directly (the in-memory one): calls `wake` once, when an event after `afterSeq` is
   * appended, and returns true; returns false without registering when one exists already.
   * Why: an idle stream waits for its whole life, and a wait through `waitFor` costs an
   * AbortController, its signal and listeners, a promise and a closure per stream; this costs
   * a set entry. {@link removeWaiter} undoes it (the stream closed first).
   */
  addWaiter?(key: string, afterSeq: number, wake: () => void): boolean;
  /** Undoes {@link addWaiter} (no-op when `wake` already ran or was never added). */
  removeWaiter?(key: string, wake: () => void): void;
  /**
   * The task reached a terminal state: the log may be dropped after its retention time. A
   * log that no stream ever read may go at once (see {@link SealOptions}): event numbers reach
   * clients only through streams, so nobody can hold a cursor into it.
   */
  seal(key: string, options?: SealOptions): void;
  /**
   * Optional hint for the writer of a run no stream was promised to (a plain SendMessage):
   * false only when no reader follows the task's log and none can hold a cursor into it, so
   * the writer may skip the append and just count the seq. Why: most tasks are never
   * streamed, and logging their events only to drop them at the seal costs every request.
   * A log shared between processes leaves it out (a reader may be anywhere): all is appended.
   */
  isFollowed?(key: string): boolean;
  /**
   * Optional, with {@link isFollowed}: a reader is about to follow the task of a live run
   * from a snapshot; from now on the task's events are appended. Called in the same turn as
   * the snapshot is taken, so no event falls between the snapshot and the log.
   */
  follow?(key: string): void;
}

/** What the writer knows about readers when it seals a log. */
export interface SealOptions {
  /**
   * A stream was promised for this task (SendStreamingMessage) and may not have read yet: a
   * fast agent can finish before its stream's first read. Such a log is kept like a read one.
   */
  readonly awaitingReader?: boolean;
}

/**
 * The log key of a task: tenant and task id, injective (an encoded tenant holds no `/`).
 */
export function taskLogKey(tenant: string, taskId: string): string {
  return `${encodeURIComponent(tenant)}/${taskId}`;
}
