import { A2AError } from './a2a-error.js';
import { A2AErrorCode } from './error-code.js';
import {
  decodePageToken,
  pageTokenAfter,
  versionConflict,
  type StoredTask,
  type TaskLease,
  type TaskPage,
  type TaskQuery,
  type TaskRef,
  type TaskStore,
} from './task-store.js';
import { isTerminal } from './task-state.js';
import { deepCopy } from './deep-copy.js';

/** Bounds of {@link InMemoryTaskStore}. */
export interface InMemoryTaskStoreOptions {
  /**
   * Eviction policy: when more than this many tasks are held, the oldest *terminal* tasks
   * (by last save) are dropped first. Active and interrupted tasks are never evicted.
   * Default 10,000.
   */
  readonly maxTasks?: number;
}

/**
 * The embedded default store. Holds deep copies, so a caller mutating a task it got back
 * (or saved) cannot corrupt the stored one.
 */
export class InMemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, StoredTask>();
  /**
   * Last-save order, which drives eviction: every save appends (key, stamp) and records the
   * stamp in `stamps`; an entry whose stamp is no longer the key's latest is stale and skipped.
   * (Re-inserting into `tasks` on every save made eviction walk over the Map's deleted slots.)
   */
  private order: Array<{ key: string; stamp: number }> = [];
  private orderHead = 0;
  private readonly stamps = new Map<string, number>();
  private nextStamp = 0;
  /** Leases by task key (only writers that pass a lease create entries). */
  private readonly leases = new Map<string, { owner: string; expiresAt: number }>();
  private readonly maxTasks: number;

  constructor(options: InMemoryTaskStoreOptions = {}) {
    this.maxTasks = options.maxTasks ?? 10_000;
  }

  private static key(tenant: string, taskId: string): string {
    return `${tenant}\u0000${taskId}`;
  }

  async get(tenant: string, taskId: string): Promise<StoredTask | undefined> {
    const found = this.tasks.get(InMemoryTaskStore.key(tenant, taskId));
    return found && deepCopy(found);
  }

  async save(task: StoredTask, expectedVersion?: number, lease?: TaskLease): Promise<void> {
    const key = InMemoryTaskStore.key(task.tenant, task.task.id);
    const current = this.tasks.get(key);
    if (expectedVersion !== undefined && (current?.version ?? 0) !== expectedVersion) throw versionConflict(task.task.id);
    const held = this.leases.get(key);
    if (lease && held && held.owner !== lease.owner && held.expiresAt >= Date.now()) throw versionConflict(task.task.id);
    if (lease) this.leases.set(key, { owner: lease.owner, expiresAt: Date.now() + lease.ttlMs });
    else this.leases.delete(key);
    this.tasks.set(key, deepCopy(task));
    const stamp = ++this.nextStamp;
    this.stamps.set(key, stamp);
    this.order.push({ key, stamp });
    if (this.tasks.size > this.maxTasks) this.evict();
    else if (this.order.length - this.orderHead > 2 * this.tasks.size + 64) this.compactOrder();
  }

  async renewLeases(owner: string, tasks: readonly TaskRef[], ttlMs: number): Promise<TaskRef[]> {
    const lost: TaskRef[] = [];
    for (const ref of tasks) {
      const held = this.leases.get(InMemoryTaskStore.key(ref.tenant, ref.taskId));
      if (held?.owner === owner) held.expiresAt = Date.now() + ttlMs;
      else lost.push(ref);
    }
    return lost;
  }

  async abandoned(options: { readonly owner?: string; readonly limit: number }): Promise<StoredTask[]> {
    const now = Date.now();
    const out: StoredTask[] = [];
    for (const [key, held] of this.leases) {
      if (out.length >= options.limit) break;
      const stored = this.tasks.get(key);
      if (stored && (held.expiresAt < now || held.owner === options.owner)) out.push(deepCopy(stored));
    }
    return out;
  }

  /** Drops the oldest terminal tasks (by last save) until at most maxTasks are held. */
  private evict(): void {
    let blocked = false;
    for (let i = this.orderHead; i < this.order.length; i++) {
      if (this.tasks.size <= this.maxTasks) break;
      const entry = this.order[i]!;
      const stored = this.stamps.get(entry.key) === entry.stamp ? this.tasks.get(entry.key) : undefined;
      const state = stored?.task.status?.state;
      if (stored && !(state !== undefined && isTerminal(state))) {
        // Active or interrupted: never evicted, and it keeps its place.
        blocked = true;
        continue;
      }
      if (stored) this.forget(entry.key);
      if (!blocked) this.orderHead = i + 1;
    }
    this.compactOrder();
  }

  /** Drops the consumed head and stale entries of the order queue once they dominate it. */
  private compactOrder(): void {
    const consumed = this.orderHead > 1024 && this.orderHead * 2 > this.order.length;
    const stale = this.order.length - this.orderHead > 2 * this.tasks.size + 64;
    if (!consumed && !stale) return;
    this.order = this.order.slice(this.orderHead).filter((entry) => this.stamps.get(entry.key) === entry.stamp);
    this.orderHead = 0;
  }

  private forget(key: string): void {
    this.tasks.delete(key);
    this.leases.delete(key);
    this.stamps.delete(key);
  }

  async delete(tenant: string, taskId: string): Promise<void> {
    this.forget(InMemoryTaskStore.key(tenant, taskId));
  }

  async list(query: TaskQuery): Promise<TaskPage> {
    const after = query.statusTimestampAfter;
    const matches: StoredTask[] = [];
    for (const stored of this.tasks.values()) {
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
      if (!cursor) throw new A2AError(A2AErrorCode.InvalidParams, 'Invalid pageToken', { fieldViolations: [{ field: 'pageToken', description: 'not a token this server issued' }] });
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
    return this.tasks.size;
  }
}

/** Status timestamp descending, then id descending: a total order, so cursors are stable. */
function compareNewestFirst(a: StoredTask, b: StoredTask): number {
  const ta = a.task.status?.timestamp ?? '';
  const tb = b.task.status?.timestamp ?? '';
  if (ta !== tb) return ta < tb ? 1 : -1;
  return a.task.id === b.task.id ? 0 : a.task.id < b.task.id ? 1 : -1;
}
