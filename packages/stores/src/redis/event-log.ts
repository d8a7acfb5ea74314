import { silentLogger, type EventLog, type LoggedEvent, type LogRead, type Logger, type SealOptions } from '@a2a-polyglot/core';
import type { StreamResponse } from '@a2a-polyglot/model';
import { decodeEvent, encodeEvent } from '../codec.js';
import { unavailable } from '../errors.js';
import type { RedisConnections } from './connections.js';
import { DEFAULT_REDIS_LOG_MAX_BYTES_PER_TASK } from './log-bounds.js';

/** Bounds and names of {@link RedisEventLog}. */
export interface RedisEventLogOptions {
  /** Prefix of every key and channel, so several deployments (or tests) share one Redis. Default `a2a`. */
  readonly prefix?: string;
  /** Events kept per task (approximate trimming: at least this many). Default 4096. */
  readonly maxEventsPerTask?: number;
  /**
   * Most bytes of Redis memory one task's log may take (`MEMORY USAGE` of its stream); past
   * it the oldest events are trimmed, and a reader behind them gets a gap and resyncs from
   * the store. The newest event is always kept (it carries the log's last seq). Counts alone
   * let a task of large events hold `maxEventsPerTask` × their size, and a reader that is
   * behind read up to 256 of them in one reply. 0 turns the bound off. Default
   * {@link DEFAULT_REDIS_LOG_MAX_BYTES_PER_TASK}.
   */
  readonly maxBytesPerTask?: number;
  /** How long a finished task's log stays readable for late resumes. Default 5 min. */
  readonly retentionMs?: number;
  /** A log nobody appended to for this long is dropped (tasks left interrupted). Default 24 h. */
  readonly idleTtlMs?: number;
  /** Longest a waiting reader sleeps before it looks again on its own (lost wake-ups). Default 10 s. */
  readonly pollMs?: number;
  readonly logger?: Logger;
}

/**
 * Appends events, each at a given seq (`ARGV[5]`, `ARGV[7]`, …; 0 means "next"), in one atomic
 * step: refuses a seq not above the stream's last id (a concurrent writer got there first),
 * trims to about `ARGV[1]` entries, then drops the oldest entries while the stream takes more
 * than `ARGV[4]` bytes (0: no byte bound; the newest entry always stays, as it tells the next
 * append the last seq), sets the expiry (`ARGV[2]`: the idle expiry, or the retention when the
 * append seals the log) and wakes the task's readers on every instance (`ARGV[3]`) once.
 * Returns the last seq written, or 0.
 */
const APPEND = `
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local last = 0
if #top > 0 then last = tonumber(string.match(top[1][1], '^(%d+)')) end
local written = 0
for i = 5, #ARGV, 2 do
  local seq = tonumber(ARGV[i])
  if seq == 0 then seq = last + 1 end
  if seq > last then
    redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], seq .. '-0', 'e', ARGV[i + 1])
    last = seq
    written = seq
  end
end
if written == 0 then return 0 end
local maxBytes = tonumber(ARGV[4])
if maxBytes > 0 then
  local held = redis.call('XLEN', KEYS[1])
  while held > 1 and redis.call('MEMORY', 'USAGE', KEYS[1], 'SAMPLES', 0) > maxBytes do
    held = held - 1
    redis.call('XTRIM', KEYS[1], 'MAXLEN', held)
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PUBLISH', ARGV[3], written)
return written
`;

const SERVICE = 'event log (Redis)';

/**
 * Core's {@link EventLog} on Redis Streams, so a client on any instance reads every event of a
 * task executing on another, in order, exactly once, and resumes from a seq anywhere.
 *
 * - One stream per task; entry id `<seq>-0`, so XRANGE by seq is the resume query and the
 *   stream itself refuses an out-of-order append.
 * - Bounded: `MAXLEN ~ maxEventsPerTask` and `maxBytesPerTask` per task (a reader behind them
 *   gets a gap and resyncs from the store), `retentionMs` after the task ends, `idleTtlMs`
 *   without appends.
 * - Waiting readers cost no connection: each waits for a pub/sub wake-up on the instance's one
 *   subscriber connection (one channel per task being waited on), re-checks after subscribing,
 *   and looks again after a reconnect or `pollMs` in case a wake-up was lost.
 */
export class RedisEventLog implements EventLog {
  private readonly prefix: string;
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  private readonly retentionMs: number;
  private readonly idleTtlMs: number;
  private readonly pollMs: number;
  private readonly logger: Logger;
  /** Readers waiting in this process, by log key (woken directly by local appends). */
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly stopReconnectWake: () => void;

  constructor(
    private readonly redis: RedisConnections,
    options: RedisEventLogOptions = {},
  ) {
    this.prefix = options.prefix ?? 'a2a';
    this.maxEvents = Math.max(1, options.maxEventsPerTask ?? 4096);
    this.maxBytes = Math.max(0, options.maxBytesPerTask ?? DEFAULT_REDIS_LOG_MAX_BYTES_PER_TASK);
    this.retentionMs = options.retentionMs ?? 5 * 60_000;
    this.idleTtlMs = options.idleTtlMs ?? 24 * 60 * 60_000;
    this.pollMs = options.pollMs ?? 10_000;
    this.logger = options.logger ?? silentLogger;
    this.stopReconnectWake = redis.subscriber.onReconnect(() => {
      for (const waiters of [...this.waiting.values()]) for (const wake of [...waiters]) wake();
    });
  }

  private streamKey(key: string): string {
    return `${this.prefix}:log:${key}`;
  }

  private wakeChannel(key: string): string {
    return `${this.prefix}:wake:${key}`;
  }

  async append(key: string, event: StreamResponse, seq?: number): Promise<number> {
    return this.appendEncoded(key, [seq ?? 0, encodeEvent(event)], this.idleTtlMs);
  }

  /**
   * A burst the writer saved with one store write: logged in one round trip, atomically; with
   * `seal` (the burst ends the task) the expiry set is the retention, as {@link seal} sets it.
   */
  async appendMany(key: string, events: readonly LoggedEvent[], options?: { readonly seal?: SealOptions }): Promise<void> {
    const args: Array<string | number> = [];
    for (const logged of events) args.push(logged.seq, encodeEvent(logged.event));
    const written = args.length === 0 ? 0 : await this.appendEncoded(key, args, options?.seal ? this.retentionMs : this.idleTtlMs);
    // Nothing written (a concurrent writer got there first): the script set no expiry.
    if (written === 0 && options?.seal) this.seal(key);
  }

  /** Runs {@link APPEND} on `seq, encoded event` pairs, expiry `expiryMs`, and wakes this process's readers. */
  private async appendEncoded(key: string, pairs: ReadonlyArray<string | number>, expiryMs: number): Promise<number> {
    let written: number;
    try {
      written = Number(
        await this.redis.commands.eval(APPEND, 1, this.streamKey(key), this.maxEvents, expiryMs, this.wakeChannel(key), this.maxBytes, ...pairs),
      );
    } catch (error) {
      throw unavailable(SERVICE, error);
    }
    if (written > 0) for (const wake of [...(this.waiting.get(key) ?? [])]) wake();
    return written;
  }

  async readAfter(key: string, afterSeq: number, max = 256): Promise<LogRead> {
    let entries: Array<[id: string, fields: string[]]>;
    try {
      entries = await this.redis.commands.xrange(this.streamKey(key), `${afterSeq}-1`, '+', 'COUNT', max);
    } catch (error) {
      throw unavailable(SERVICE, error);
    }
    const events: LoggedEvent[] = [];
    for (const [id, fields] of entries) {
      const seq = Number.parseInt(id, 10);
      // Only a gap-free run after the cursor; a hole means events were trimmed (or a racing
      // writer lost): the reader resyncs from the store.
      if (seq !== afterSeq + events.length + 1) return events.length === 0 ? { events: [], gap: true } : { events, gap: false };
      events.push({ seq, event: decodeEvent(fieldValue(fields, 'e')) });
    }
    return { events, gap: false };
  }

  async lastSeq(key: string): Promise<number> {
    try {
      const top = await this.redis.commands.xrevrange(this.streamKey(key), '+', '-', 'COUNT', 1);
      return top[0] ? Number.parseInt(top[0][0], 10) : 0;
    } catch (error) {
      throw unavailable(SERVICE, error);
    }
  }

  waitFor(key: string, afterSeq: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      let done = false;
      let unsubscribe: (() => void) | undefined;
      let waiters = this.waiting.get(key);
      if (!waiters) {
        waiters = new Set();
        this.waiting.set(key, waiters);
      }
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', finish);
        const current = this.waiting.get(key);
        current?.delete(finish);
        if (current?.size === 0) this.waiting.delete(key);
        unsubscribe?.();
        resolve();
      };
      const timer = setTimeout(finish, this.pollMs);
      signal.addEventListener('abort', finish, { once: true });
      waiters.add(finish);
      this.redis.subscriber.subscribe(this.wakeChannel(key), finish).then(
        (remove) => {
          if (done) return remove();
          unsubscribe = remove;
          // An append between the caller's read and the subscription would otherwise be missed.
          this.lastSeq(key).then(
            (last) => last > afterSeq && finish(),
            () => undefined,
          );
        },
        // Subscriber down: the poll timer (and the reconnect wake-up) still end the wait.
        (error: unknown) => this.logger.debug({ err: error }, 'subscribing for wake-ups failed'),
      );
    });
  }

  seal(key: string): void {
    this.redis.commands.pexpire(this.streamKey(key), this.retentionMs).catch((error: unknown) => {
      // The idle expiry still bounds the log.
      this.logger.warn({ key, err: (error as Error).message }, 'setting the retention of a finished task log failed');
    });
  }

  /** Stops waking readers on reconnect (the connections are closed by their owner). */
  close(): void {
    this.stopReconnectWake();
    for (const waiters of [...this.waiting.values()]) for (const wake of [...waiters]) wake();
  }
}

function fieldValue(fields: readonly string[], name: string): string {
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const value = fields[i + 1];
    if (fields[i] === name && value !== undefined) return value;
  }
  throw new Error(`stream entry without field ${name}`);
}
