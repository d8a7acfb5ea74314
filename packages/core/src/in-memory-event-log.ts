/**
 * The single-process {@link EventLog}, apart from the log's contract so the contract reads
 * on its own (like `TaskStore` and `InMemoryTaskStore`).
 */
import type { StreamResponse } from '@a2a-polyglot/model';
import { estimateEventBytes } from './event-size.js';
import type { LoggedEvent, LogRead, EventLog, SealOptions } from './event-log.js';

/** Default of {@link InMemoryEventLogOptions.maxBytes}: 64 MiB of estimated event bytes. */
export const DEFAULT_EVENT_LOG_MAX_BYTES = 64 * 1024 * 1024;

/** What holding one logged event costs beyond the event: its `{ seq, event }` record and array slot. */
const ENTRY_BYTES = 56;

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
  /**
   * At most this many estimated bytes of events ({@link estimateEventBytes}) are held in all logs
   * together, sealed or not. Counts alone let large events pile up: 150 streamed sends of
   * 3 MB held 0.9 GB for the retention time. Past it, the oldest sealed logs are dropped
   * first, then the oldest events of live logs (oldest task first); a reader behind a dropped
   * event gets a gap and resyncs from the task snapshot, as behind `maxEventsPerTask`.
   * Default {@link DEFAULT_EVENT_LOG_MAX_BYTES}.
   */
  readonly maxBytes?: number;
}

interface TaskLog {
  events: LoggedEvent[];
  /** Estimated bytes of each event in `events`, index for index. */
  sizes: number[];
  /** Sum of `sizes`. */
  bytes: number;
  /** seq of events[0] */
  firstSeq: number;
  lastSeq: number;
  /** Events it held when sealed (counted against maxSealedEvents until dropped). */
  sealedEvents: number;
  /** Some stream has read it (or waited on it): a client may hold a cursor into it. */
  read: boolean;
  /**
   * Readers waiting for the next event: the one reader itself while it is the only one (the
   * usual case: an idle stream waits for its whole life, and a Set costs ~120 bytes), a Set
   * once a second one waits.
   */
  waiters: (() => void) | Set<() => void> | undefined;
}

/** Adds a waiting reader (once, as a Set would). */
function addWaiterTo(log: TaskLog, wake: () => void): void {
  const waiters = log.waiters;
  if (waiters === undefined) log.waiters = wake;
  else if (typeof waiters === 'function') {
    if (waiters !== wake) log.waiters = new Set([waiters, wake]);
  } else waiters.add(wake);
}

function removeWaiterFrom(log: TaskLog, wake: () => void): void {
  const waiters = log.waiters;
  if (waiters === wake) log.waiters = undefined;
  else if (waiters !== undefined && typeof waiters !== 'function') waiters.delete(wake);
}

/** True when some reader waits on `log`. */
function hasWaiters(log: TaskLog | undefined): boolean {
  const waiters = log?.waiters;
  return waiters !== undefined && (typeof waiters === 'function' || waiters.size > 0);
}

/** The single-process event log: an array per task, bounded, with timed retention. */
export class InMemoryEventLog implements EventLog {
  private readonly logs = new Map<string, TaskLog>();
  private readonly maxEvents: number;
  private readonly retentionMs: number;
  private readonly maxSealed: number;
  private readonly maxSealedEvents: number;
  private readonly maxBytes: number;
  /** Events held in sealed logs, together. */
  private sealedEvents = 0;
  /** Estimated bytes of every event held, together. */
  private heldBytes = 0;
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
    this.maxBytes = Math.max(0, options.maxBytes ?? DEFAULT_EVENT_LOG_MAX_BYTES);
  }

  private log(taskId: string): TaskLog {
    let log = this.logs.get(taskId);
    if (!log) {
      log = { events: [], sizes: [], bytes: 0, firstSeq: 1, lastSeq: 0, sealedEvents: 0, read: false, waiters: undefined };
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
        this.dropFront(log, log.events.length);
        log.firstSeq = at;
        log.lastSeq = at - 1;
      }
    }
    const seq = ++log.lastSeq;
    const size = ENTRY_BYTES + estimateEventBytes(event);
    log.events.push({ seq, event });
    log.sizes.push(size);
    log.bytes += size;
    this.heldBytes += size;
    // Evict in blocks of a quarter so appends stay amortised O(1).
    if (log.events.length > this.maxEvents) this.dropFront(log, Math.max(1, this.maxEvents >> 2));
    if (this.heldBytes > this.maxBytes) this.trimBytes();
    const waiters = log.waiters;
    if (typeof waiters === 'function') {
      log.waiters = undefined;
      waiters();
    } else if (waiters && waiters.size > 0) {
      const woken = [...waiters];
      waiters.clear();
      for (const wake of woken) wake();
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
        removeWaiterFrom(log, done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      addWaiterTo(log, done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  addWaiter(taskId: string, afterSeq: number, wake: () => void): boolean {
    const log = this.log(taskId);
    log.read = true;
    if (log.lastSeq > afterSeq) return false;
    addWaiterTo(log, wake);
    return true;
  }

  removeWaiter(taskId: string, wake: () => void): void {
    const log = this.logs.get(taskId);
    if (log) removeWaiterFrom(log, wake);
  }

  seal(taskId: string, options: SealOptions = {}): void {
    const log = this.logs.get(taskId);
    if (!log || this.sealed.has(taskId)) return;
    if (!log.read && !options.awaitingReader) {
      // No stream ever saw these events, so no client can resume from one: nothing to keep.
      this.drop(taskId);
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
      if (hasWaiters(log)) watched.push(taskId);
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
      if (hasWaiters(log)) continue; // someone is still reading it
      if (log) this.drop(taskId);
      else this.sealed.delete(taskId);
    }
  }

  /**
   * Brings the bytes held back within {@link InMemoryEventLogOptions.maxBytes}: first whole
   * sealed logs, oldest first (but not one someone waits on, as in {@link trimSealed}); then
   * the oldest events of the logs still being written, oldest log first. Either way a reader
   * whose next event went sees a gap (a missing log, or a cursor before `firstSeq`) and
   * resyncs from the snapshot; none is left waiting for an event that will never come.
   */
  private trimBytes(): void {
    for (const taskId of this.sealed.keys()) {
      if (this.heldBytes <= this.maxBytes) return;
      const log = this.logs.get(taskId);
      if (hasWaiters(log)) continue;
      this.drop(taskId);
    }
    for (const [taskId, log] of this.logs) {
      if (this.heldBytes <= this.maxBytes) return;
      if (this.sealed.has(taskId)) continue;
      let count = 0;
      let freed = 0;
      while (count < log.events.length && this.heldBytes - freed > this.maxBytes) freed += log.sizes[count++] ?? 0;
      this.dropFront(log, count);
    }
  }

  /** Drops the first `count` events of a log (not a sealed one: its event count is on the books). */
  private dropFront(log: TaskLog, count: number): void {
    if (count <= 0) return;
    log.events.splice(0, count);
    let freed = 0;
    for (const size of log.sizes.splice(0, count)) freed += size;
    log.bytes -= freed;
    this.heldBytes -= freed;
    log.firstSeq = log.events[0]?.seq ?? log.lastSeq + 1;
  }

  private drop(taskId: string): void {
    const log = this.logs.get(taskId);
    if (log && this.sealed.has(taskId)) this.sealedEvents -= log.sealedEvents;
    if (log) this.heldBytes -= log.bytes;
    this.logs.delete(taskId);
    this.sealed.delete(taskId);
  }

  /** Number of task logs held (for tests and metrics). */
  get size(): number {
    return this.logs.size;
  }

  /** Estimated bytes of the events held in all logs (for tests and metrics). */
  get bytes(): number {
    return this.heldBytes;
  }
}
