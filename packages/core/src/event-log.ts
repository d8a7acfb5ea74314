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

/** Bounds of {@link InMemoryEventLog}. */
export interface InMemoryEventLogOptions {
  /** Events kept per task; older ones are evicted (readers behind them resync). Default 4096. */
  readonly maxEventsPerTask?: number;
  /** How long a sealed (terminal) task's log stays readable for late resumes. Default 60 s. */
  readonly retentionMs?: number;
  /**
   * At most this many sealed logs are retained; past it the oldest sealed log is dropped at
   * once, so memory is bounded by a count, not by throughput × retention. Default 1000.
   */
  readonly maxSealedLogs?: number;
  /**
   * At most this many events are held in sealed logs, together; past it the oldest sealed
   * logs are dropped. Bounds memory when tasks are long (a thousand sealed logs of a thousand
   * chunks each would otherwise stay for the retention time). Default 32768.
   */
  readonly maxSealedEvents?: number;
}

interface TaskLog {
  events: LoggedEvent[];
  /** seq of events[0] */
  firstSeq: number;
  lastSeq: number;
  /** Events it held when sealed (counted against maxSealedEvents until dropped). */
  sealedEvents: number;
  /** Some stream has read it (or waited on it): a client may hold a cursor into it. */
  read: boolean;
  /** Readers waiting for the next event; made when the first one waits. */
  waiters: Set<() => void> | undefined;
}

/** The single-process event log: an array per task, bounded, with timed retention. */
export class InMemoryEventLog implements EventLog {
  private readonly logs = new Map<string, TaskLog>();
  private readonly maxEvents: number;
  private readonly retentionMs: number;
  private readonly maxSealed: number;
  private readonly maxSealedEvents: number;
  /** Events held in sealed logs, together. */
  private sealedEvents = 0;
  /**
   * Sealed task ids and when each was sealed, oldest first (a Map keeps insertion order, and
   * every entry has the same retention, so this is also expiry order).
   */
  private readonly sealed = new Map<string, number>();
  /** One timer for all sealed logs, armed for the oldest (a timer per task cost more than the task's events). */
  private sweepTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: InMemoryEventLogOptions = {}) {
    this.maxEvents = Math.max(1, options.maxEventsPerTask ?? 4096);
    this.retentionMs = options.retentionMs ?? 60_000;
    this.maxSealed = Math.max(0, options.maxSealedLogs ?? 1000);
    this.maxSealedEvents = Math.max(0, options.maxSealedEvents ?? 32_768);
  }

  private log(taskId: string): TaskLog {
    let log = this.logs.get(taskId);
    if (!log) {
      log = { events: [], firstSeq: 1, lastSeq: 0, sealedEvents: 0, read: false, waiters: undefined };
      this.logs.set(taskId, log);
    }
    return log;
  }

  append(taskId: string, event: StreamResponse, at?: number): number {
    const log = this.log(taskId);
    if (at !== undefined) {
      if (at <= log.lastSeq) return 0;
      if (at > log.lastSeq + 1) {
        // A hole (the log was dropped, or started after the task): hold events from `at` on.
        log.events = [];
        log.firstSeq = at;
        log.lastSeq = at - 1;
      }
    }
    const seq = ++log.lastSeq;
    log.events.push({ seq, event });
    if (log.events.length > this.maxEvents) {
      // Evict in blocks of a quarter so appends stay amortised O(1).
      const drop = Math.max(1, this.maxEvents >> 2);
      log.events.splice(0, drop);
      log.firstSeq = log.events[0]?.seq ?? seq + 1;
    }
    if (log.waiters && log.waiters.size > 0) {
      const waiters = [...log.waiters];
      log.waiters.clear();
      for (const wake of waiters) wake();
    }
    return seq;
  }

  readAfter(taskId: string, afterSeq: number, max = 256): LogRead {
    const log = this.logs.get(taskId);
    if (!log) return { events: [], gap: afterSeq > 0 };
    log.read = true;
    if (afterSeq >= log.lastSeq) return { events: [], gap: false };
    if (afterSeq + 1 < log.firstSeq) return { events: [], gap: true };
    const start = afterSeq + 1 - log.firstSeq;
    return { events: log.events.slice(start, start + max), gap: false };
  }

  isFollowed(taskId: string): boolean {
    return this.logs.has(taskId);
  }

  follow(taskId: string): void {
    this.log(taskId).read = true;
  }

  async lastSeq(taskId: string): Promise<number> {
    return this.logs.get(taskId)?.lastSeq ?? 0;
  }

  waitFor(taskId: string, afterSeq: number, signal: AbortSignal): Promise<void> {
    const log = this.log(taskId);
    log.read = true;
    if (log.lastSeq > afterSeq || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        log.waiters?.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      log.waiters ??= new Set();
      log.waiters.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  addWaiter(taskId: string, afterSeq: number, wake: () => void): boolean {
    const log = this.log(taskId);
    log.read = true;
    if (log.lastSeq > afterSeq) return false;
    log.waiters ??= new Set();
    log.waiters.add(wake);
    return true;
  }

  removeWaiter(taskId: string, wake: () => void): void {
    this.logs.get(taskId)?.waiters?.delete(wake);
  }

  seal(taskId: string, options: SealOptions = {}): void {
    const log = this.logs.get(taskId);
    if (!log || this.sealed.has(taskId)) return;
    if (!log.read && !options.awaitingReader) {
      // No stream ever saw these events, so no client can resume from one: nothing to keep.
      this.logs.delete(taskId);
      return;
    }
    this.sealed.set(taskId, Date.now());
    log.sealedEvents = log.events.length;
    this.sealedEvents += log.sealedEvents;
    this.trimSealed();
    this.armSweep();
  }

  /** Arms the retention timer for the oldest sealed log, unless it is armed already. */
  private armSweep(): void {
    if (this.sweepTimer || this.sealed.size === 0) return;
    const oldest = this.sealed.values().next().value as number;
    this.sweepTimer = setTimeout(() => this.sweepSealed(), Math.max(0, oldest + this.retentionMs - Date.now()));
    // Never keep a process alive just to drop a log.
    (this.sweepTimer as { unref?: () => void }).unref?.();
  }

  /** Drops the sealed logs whose retention ran out; one still being read is kept another round. */
  private sweepSealed(): void {
    this.sweepTimer = undefined;
    const now = Date.now();
    const watched: string[] = [];
    for (const [taskId, sealedAt] of this.sealed) {
      if (sealedAt + this.retentionMs > now) break;
      const log = this.logs.get(taskId);
      if (log?.waiters && log.waiters.size > 0) watched.push(taskId);
      else if (log) this.drop(taskId);
      else this.sealed.delete(taskId);
    }
    for (const taskId of watched) {
      this.sealed.delete(taskId);
      this.sealed.set(taskId, now);
    }
    this.armSweep();
  }

  /** Drops the oldest sealed logs beyond {@link InMemoryEventLogOptions.maxSealedLogs} and `maxSealedEvents`. */
  private trimSealed(): void {
    for (const taskId of this.sealed.keys()) {
      if (this.sealed.size <= this.maxSealed && this.sealedEvents <= this.maxSealedEvents) return;
      const log = this.logs.get(taskId);
      if (log?.waiters && log.waiters.size > 0) continue; // someone is still reading it
      if (log) this.drop(taskId);
      else this.sealed.delete(taskId);
    }
  }

  private drop(taskId: string): void {
    const log = this.logs.get(taskId);
    if (log && this.sealed.has(taskId)) this.sealedEvents -= log.sealedEvents;
    this.logs.delete(taskId);
    this.sealed.delete(taskId);
  }

  /** Number of task logs held (for tests and metrics). */
  get size(): number {
    return this.logs.size;
  }
}
