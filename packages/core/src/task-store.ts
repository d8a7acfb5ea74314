import type { Task, TaskState } from '@a2a-polyglot/model';
import { A2AError } from './a2a-error.js';
import { A2AErrorCode } from './error-code.js';
import type { TenantPartition } from './tenant-partition.js';

/** A task as stored: the A2A task plus who may see it. */
export interface StoredTask {
  /** Tenant scope ('' when the deployment is single-tenant). */
  readonly tenant: string;
  /** Principal that created the task, when authentication is on; scopes every read. */
  readonly owner?: string;
  readonly task: Task;
  /**
   * Optimistic-concurrency version: the event sequence number folded into `task`. A store
   * rejects a save whose `expectedVersion` is stale, so two writers never silently overwrite
   * each other.
   */
  readonly version: number;
}

/** Filters of ListTasks (spec §5.3), already validated by the core. */
export interface TaskQuery {
  readonly tenant: string;
  readonly owner?: string;
  readonly contextId?: string;
  readonly state?: TaskState;
  /** Only tasks whose status timestamp is ≥ this (RFC 3339). */
  readonly statusTimestampAfter?: string;
  readonly pageSize: number;
  /** Opaque cursor from a previous page, or '' for the first page. */
  readonly pageToken: string;
}

/** One page of tasks, newest status first. */
export interface TaskPage {
  readonly tasks: readonly StoredTask[];
  readonly nextPageToken: string;
  readonly totalSize: number;
}

/**
 * A claim on a task by the instance executing it. Durable stores shared by several instances
 * record it, so a task whose instance died is noticed (the lease runs out) instead of staying
 * `working` forever, and so two instances never run the same task at once.
 */
export interface TaskLease {
  /** The instance id of the writer. */
  readonly owner: string;
  /** How long the lease holds from the save, measured on the store's own clock. */
  readonly ttlMs: number;
}

/** Names one task: the tenant scopes the id. */
export interface TaskRef {
  readonly tenant: string;
  readonly taskId: string;
}

/** How the writer hands a task to {@link TaskStore.save}. */
export interface SaveOptions {
  /**
   * The writer will never change this task object again: it is in a terminal state, after
   * which the run's writer refuses every event. An in-process store may then keep the object
   * itself instead of a deep copy (the copy was a fifth of the in-process cost of a
   * SendMessage → Task: issue 14's profile); stores that serialise ignore it. Reads still hand
   * out copies, so nobody else can change what the store holds.
   */
  readonly final?: boolean;
}

/** What a sweep asks {@link TaskStore.abandoned} for. */
export interface AbandonedQuery {
  /** Also every task still leased by this owner (the startup sweep). */
  readonly owner?: string;
  /** At most this many tasks, oldest lease expiry first. */
  readonly limit: number;
  /**
   * Only tasks whose stored tenant is in this partition, applied by the store before `limit`
   * (see {@link TenantPartition}): the sweep of one party of a shared store (an executor
   * agent) then never starves behind more than `limit` abandoned tasks of the others, and
   * never reads them. Unset: every tenant.
   */
  readonly tenants?: TenantPartition;
}

/**
 * Where tasks live. The core is the only writer; it serialises writes per task. Durable
 * implementations (SQLite, PostgreSQL) implement the same contract, and every read and write
 * is scoped by the tenant.
 */
export interface TaskStore {
  get(tenant: string, taskId: string): Promise<StoredTask | undefined>;
  /**
   * Inserts or replaces. When `expectedVersion` is given and the stored version differs (0
   * means "must not exist yet"), the save must fail with {@link versionConflict} instead of
   * overwriting. With `lease`, the writer claims or renews the task's lease and the save also
   * fails with a conflict while another owner holds an unexpired lease; without `lease`, any
   * lease on the task is released. Stores without leases ignore `lease`.
   */
  save(task: StoredTask, expectedVersion?: number, lease?: TaskLease, options?: SaveOptions): Promise<void>;
  list(query: TaskQuery): Promise<TaskPage>;
  /** Removes a task (eviction, tests). */
  delete(tenant: string, taskId: string): Promise<void>;
  /**
   * Optional (stores shared by several instances): extends the leases `owner` holds on these
   * tasks by `ttlMs` and returns the tasks whose lease it no longer holds (taken over by a
   * cancel or a sweep elsewhere), so their runs stop.
   */
  renewLeases?(owner: string, tasks: readonly TaskRef[], ttlMs: number): Promise<TaskRef[]>;
  /**
   * Optional: tasks holding a lease that has run out, plus (when `owner` is given: the startup
   * sweep) every task still leased by `owner`, i.e. by this instance before it restarted; with
   * `tenants`, only those whose tenant is in that partition (see {@link AbandonedQuery}).
   */
  abandoned?(query: AbandonedQuery): Promise<StoredTask[]>;
  /**
   * Optional (bounded stores): throws an {@link A2AError} (RESOURCE_EXHAUSTED) when the store
   * has no room for a new task whose first message is about `bytes`. The core calls it before
   * a new task exists anywhere, so a full store answers the client an error rather than the
   * id of a task it then cannot hold.
   */
  admitNewTask?(tenant: string, bytes: number): void;
}

/**
 * The error a store throws for a stale write: `Unavailable` (the caller may retry after
 * reloading), tagged so the core can tell a lost race from a store outage.
 */
export function versionConflict(taskId: string): A2AError {
  return new A2AError(A2AErrorCode.Unavailable, `Task ${taskId} was modified concurrently`, { metadata: { taskId, conflict: 'version' } });
}

/** True for the error of {@link versionConflict}. */
export function isVersionConflict(error: unknown): boolean {
  return error instanceof A2AError && error.metadata.conflict === 'version';
}

/** Encodes the ListTasks cursor: the sort key of the last task of the page. */
export function encodePageToken(timestamp: string, id: string): string {
  return base64url(JSON.stringify([timestamp, id]));
}

/**
 * The cursor of a page that ends with `task`: its sort key (status timestamp, id) as every
 * store orders ListTasks, so the next page starts right after it. One rule for all stores and
 * for pages the core ends early.
 */
export function pageTokenAfter(task: Task): string {
  return encodePageToken(task.status?.timestamp ?? '', task.id);
}

/** Decodes a cursor made by {@link encodePageToken}; undefined when malformed. */
export function decodePageToken(token: string): { timestamp: string; id: string } | undefined {
  try {
    const parsed: unknown = JSON.parse(fromBase64url(token));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && typeof parsed[1] === 'string') {
      return { timestamp: parsed[0], id: parsed[1] };
    }
  } catch {
    // fall through
  }
  return undefined;
}

function base64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): string {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}
