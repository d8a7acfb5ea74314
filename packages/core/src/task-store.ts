import type { Task, TaskState } from '@a2a-polyglot/model';

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
 * Where tasks live. The core is the only writer; it serialises writes per task. Durable
 * implementations (SQLite, PostgreSQL) implement the same contract.
 */
export interface TaskStore {
  get(tenant: string, taskId: string): Promise<StoredTask | undefined>;
  /**
   * Inserts or replaces. When `expectedVersion` is given and the stored version differs, the
   * save must fail with a conflict (A2AError Unavailable, retryable) instead of overwriting.
   */
  save(task: StoredTask, expectedVersion?: number): Promise<void>;
  list(query: TaskQuery): Promise<TaskPage>;
  /** Removes a task (eviction, tests). */
  delete(tenant: string, taskId: string): Promise<void>;
}

/** Encodes the ListTasks cursor: the sort key of the last task of the page. */
export function encodePageToken(timestamp: string, id: string): string {
  return base64url(JSON.stringify([timestamp, id]));
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
