import { A2AError } from './a2a-error.js';
import { A2AErrorCode } from './error-code.js';
import {
  decodePageToken,
  pageTokenAfter,
  versionConflict,
  type AbandonedQuery,
  type SaveOptions,
  type StoredTask,
  type TaskLease,
  type TaskPage,
  type TaskQuery,
  type TaskRef,
  type TaskStore,
} from './task-store.js';
import { isInterrupted, isTerminal } from './task-state.js';
import { inTenantPartition } from './tenant-partition.js';
import { deepCopy } from './deep-copy.js';
import { estimateBytes } from './estimate-size.js';
import { SaveOrder } from './save-order.js';

/** Default of {@link InMemoryTaskStoreOptions.maxBytes}: 256 MiB of estimated task bytes. */
export const DEFAULT_MEMORY_STORE_MAX_BYTES = 256 * 1024 * 1024;
/** Default of {@link InMemoryTaskStoreOptions.interruptedIdleMs}: one hour. */
export const DEFAULT_INTERRUPTED_IDLE_MS = 60 * 60 * 1000;

/**
 * Bounds of {@link InMemoryTaskStore}. Held tasks are measured with {@link estimateBytes}
 * (approximate heap bytes of the stored copy). When a save puts the store over a bound, tasks
 * are evicted in this order until it is within bounds again:
 * 1. finished (terminal) tasks, the one saved longest ago first;
 * 2. interrupted (input-required, auth-required) tasks, the one idle longest first.
 * Live tasks (submitted, working) are never evicted: a NEW live task that would take the live
 * tasks alone past a bound is refused instead (RESOURCE_EXHAUSTED), while saves of tasks
 * already held are always accepted, so running work is never lost or corrupted (the store can
 * then exceed its budget by what running tasks add until they finish and become evictable).
 */
export interface InMemoryTaskStoreOptions {
  /** Most estimated bytes of tasks held. Default {@link DEFAULT_MEMORY_STORE_MAX_BYTES}. */
  readonly maxBytes?: number;
  /** Most tasks held, whatever their size. Default 10,000. */
  readonly maxTasks?: number;
  /**
   * An interrupted task not saved for this long is dropped (its client never answered);
   * 0 keeps interrupted tasks until evicted. Default {@link DEFAULT_INTERRUPTED_IDLE_MS}.
   */
  readonly interruptedIdleMs?: number;
  /** The clock (ms since the epoch) for idle expiry and leases; tests inject one. Default `Date.now`. */
  readonly now?: () => number;
}

type Kind = 'live' | 'interrupted' | 'finished';

/** One held task: the stored copy, its estimated size, its class and its last save. */
interface Entry {
  readonly stored: StoredTask;
  readonly bytes: number;
  readonly kind: Kind;
  readonly stamp: number;
  readonly savedAt: number;
}

/**
 * The embedded default store, bounded by bytes (see {@link InMemoryTaskStoreOptions} for the
 * eviction order). Holds deep copies, so a caller mutating a task it got back (or saved)
 * cannot corrupt the stored one.
 */
export class InMemoryTaskStore implements TaskStore {
  private readonly entries = new Map<string, Entry>();
  private readonly finished = new SaveOrder((key, stamp) => this.isCurrent(key, stamp, 'finished'));
  private readonly interrupted = new SaveOrder((key, stamp) => this.isCurrent(key, stamp, 'interrupted'));
  private nextStamp = 0;
  private heldBytes = 0;
  private readonly usage = { live: { count: 0, bytes: 0 }, interrupted: { count: 0, bytes: 0 }, finished: { count: 0, bytes: 0 } };
  /** Leases by task key (only writers that pass a lease create entries). */
  private readonly leases = new Map<string, { owner: string; expiresAt: number }>();
  private readonly maxBytes: number;
  private readonly maxTasks: number;
  private readonly interruptedIdleMs: number;
  private readonly now: () => number;

  constructor(options: InMemoryTaskStoreOptions = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_MEMORY_STORE_MAX_BYTES;
    this.maxTasks = options.maxTasks ?? 10_000;
    this.interruptedIdleMs = options.interruptedIdleMs ?? DEFAULT_INTERRUPTED_IDLE_MS;
    this.now = options.now ?? Date.now;
  }

  private static key(tenant: string, taskId: string): string {
    return `${tenant}\u0000${taskId}`;
  }

  async get(tenant: string, taskId: string): Promise<StoredTask | undefined> {
    this.expireIdle();
    const found = this.entries.get(InMemoryTaskStore.key(tenant, taskId));
    return found && deepCopy(found.stored);
  }

  async save(task: StoredTask, expectedVersion?: number, lease?: TaskLease, options?: SaveOptions): Promise<void> {
    this.expireIdle();
    const key = InMemoryTaskStore.key(task.tenant, task.task.id);
    const current = this.entries.get(key);
    if (expectedVersion !== undefined && (current?.stored.version ?? 0) !== expectedVersion) throw versionConflict(task.task.id);
    const now = this.now();
    const held = this.leases.get(key);
    if (lease && held && held.owner !== lease.owner && held.expiresAt >= now) throw versionConflict(task.task.id);
    // A final task is no longer written by anyone (SaveOptions.final): kept as handed over.
    const stored = options?.final ? task : deepCopy(task);
    const bytes = estimateBytes(stored) + key.length;
    const kind = kindOf(stored);
    if (!current && kind === 'live') this.admitLive(bytes, task.task.id);
    if (lease) this.leases.set(key, { owner: lease.owner, expiresAt: now + lease.ttlMs });
    else this.leases.delete(key);
    if (current) this.account(current, -1);
    const entry: Entry = { stored, bytes, kind, stamp: ++this.nextStamp, savedAt: now };
    this.entries.set(key, entry);
    this.account(entry, 1);
    if (kind === 'finished') this.finished.push(key, entry.stamp);
    if (kind === 'interrupted') this.interrupted.push(key, entry.stamp);
    this.evictToBounds();
    this.finished.compact(this.usage.finished.count);
    this.interrupted.compact(this.usage.interrupted.count);
  }

  /**
   * Refuses (RESOURCE_EXHAUSTED) a new task of about `bytes` when the live tasks alone leave no
   * room for it: they are never evicted. The core asks before the task exists anywhere, so the
   * client gets this error instead of a task id; `save` applies the same rule to new live tasks.
   */
  admitNewTask(_tenant: string, bytes: number): void {
    this.admitLive(bytes, undefined);
  }

  private admitLive(bytes: number, taskId: string | undefined): void {
    const live = this.usage.live;
    if (live.bytes + bytes <= this.maxBytes && live.count + 1 <= this.maxTasks) return;
    throw new A2AError(A2AErrorCode.ResourceExhausted, 'The task store is full of running tasks; retry when some have finished', {
      metadata: { ...(taskId !== undefined && { taskId }), limit: live.count + 1 > this.maxTasks ? 'maxTasks' : 'maxBytes' },
    });
  }

  /** Evicts finished tasks (saved longest ago first), then interrupted ones (idle longest first), until within bounds. */
  private evictToBounds(): void {
    while (this.heldBytes > this.maxBytes || this.entries.size > this.maxTasks) {
      const victim = this.finished.oldest() ?? this.interrupted.oldest();
      if (victim === undefined) return;
      this.forget(victim);
    }
  }

  /** Drops interrupted tasks idle for longer than `interruptedIdleMs`. */
  private expireIdle(): void {
    if (this.interruptedIdleMs <= 0 || this.usage.interrupted.count === 0) return;
    const cutoff = this.now() - this.interruptedIdleMs;
    for (let key = this.interrupted.oldest(); key !== undefined; key = this.interrupted.oldest()) {
      const entry = this.entries.get(key);
      if (entry && entry.savedAt >= cutoff) return;
      this.forget(key);
    }
  }

  private isCurrent(key: string, stamp: number, kind: Kind): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && entry.stamp === stamp && entry.kind === kind;
  }

  private account(entry: Entry, sign: 1 | -1): void {
    const bucket = this.usage[entry.kind];
    bucket.count += sign;
    bucket.bytes += sign * entry.bytes;
    this.heldBytes += sign * entry.bytes;
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (entry) this.account(entry, -1);
    this.entries.delete(key);
    this.leases.delete(key);
  }

  async renewLeases(owner: string, tasks: readonly TaskRef[], ttlMs: number): Promise<TaskRef[]> {
    const lost: TaskRef[] = [];
    for (const ref of tasks) {
      const held = this.leases.get(InMemoryTaskStore.key(ref.tenant, ref.taskId));
      if (held?.owner === owner) held.expiresAt = this.now() + ttlMs;
      else lost.push(ref);
    }
    return lost;
  }

  async abandoned(query: AbandonedQuery): Promise<StoredTask[]> {
    const now = this.now();
    const out: StoredTask[] = [];
    for (const [key, held] of this.leases) {
      if (out.length >= query.limit) break;
      const entry = this.entries.get(key);
      if (!entry || !inTenantPartition(entry.stored.tenant, query.tenants)) continue;
      if (held.expiresAt < now || held.owner === query.owner) out.push(deepCopy(entry.stored));
    }
    return out;
  }

  async delete(tenant: string, taskId: string): Promise<void> {
    this.forget(InMemoryTaskStore.key(tenant, taskId));
  }

  async list(query: TaskQuery): Promise<TaskPage> {
    this.expireIdle();
    const after = query.statusTimestampAfter;
    const matches: StoredTask[] = [];
    for (const { stored } of this.entries.values()) {
      if (stored.tenant !== query.tenant) continue;
      if (query.owner !== undefined && stored.owner !== query.owner) continue;
      if (query.contextId && stored.task.contextId !== query.contextId) continue;
      if (query.state !== undefined && stored.task.status?.state !== query.state) continue;
      if (after && (stored.task.status?.timestamp ?? '') < after) continue;
      matches.push(stored);
    }
    matches.sort(compareNewestFirst);
    let start = 0;
    if (query.pageToken) {
      const cursor = decodePageToken(query.pageToken);
      if (!cursor)
        throw new A2AError(A2AErrorCode.InvalidParams, 'Invalid pageToken', {
          fieldViolations: [{ field: 'pageToken', description: 'not a token this server issued' }],
        });
      start = matches.findIndex((t) => compareNewestFirst(t, { task: { id: cursor.id, status: { timestamp: cursor.timestamp } } } as StoredTask) > 0);
      if (start < 0) start = matches.length;
    }
    const page = matches.slice(start, start + query.pageSize);
    const last = page[page.length - 1];
    const more = start + page.length < matches.length;
    return {
      tasks: page.map((t) => deepCopy(t)),
      nextPageToken: more && last ? pageTokenAfter(last.task) : '',
      totalSize: matches.length,
    };
  }

  /** Number of tasks held (for tests and memory checks). */
  get size(): number {
    return this.entries.size;
  }

  /** Estimated bytes of the tasks held (see {@link estimateBytes}); for tests, metrics and memory checks. */
  get bytes(): number {
    return this.heldBytes;
  }
}

/** Which eviction class a task is in, by its state: live tasks are never evicted. */
function kindOf(stored: StoredTask): Kind {
  const state = stored.task.status?.state;
  if (state !== undefined && isTerminal(state)) return 'finished';
  if (state !== undefined && isInterrupted(state)) return 'interrupted';
  return 'live';
}

/** Status timestamp descending, then id descending: a total order, so cursors are stable. */
function compareNewestFirst(a: StoredTask, b: StoredTask): number {
  const ta = a.task.status?.timestamp ?? '';
  const tb = b.task.status?.timestamp ?? '';
  if (ta !== tb) return ta < tb ? 1 : -1;
  return a.task.id === b.task.id ? 0 : a.task.id < b.task.id ? 1 : -1;
}
