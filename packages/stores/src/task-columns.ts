import type { StoredTask } from '@a2a-polyglot/core';
import { decodeTask, encodeTask } from './codec.js';

/**
 * The values a durable store indexes a task by, besides the encoded task itself: one
 * function, so PostgreSQL, SQLite and DynamoDB agree on them (a task without a status is
 * state 0 with an empty status timestamp, which sorts it last in ListTasks).
 */
export interface TaskColumns {
  readonly tenant: string;
  readonly id: string;
  readonly contextId: string;
  /** The caller the task belongs to, null when it has none (SQL NULL). */
  readonly owner: string | null;
  readonly state: number;
  readonly statusTs: string;
  readonly version: number;
  /** The task, encoded (see `encodeTask`). */
  readonly task: string;
}

/** The column values of `stored` (see {@link TaskColumns}). */
export function taskColumns(stored: StoredTask): TaskColumns {
  const t = stored.task;
  return {
    tenant: stored.tenant,
    id: t.id,
    contextId: t.contextId,
    owner: stored.owner ?? null,
    state: t.status?.state ?? 0,
    statusTs: t.status?.timestamp ?? '',
    version: stored.version,
    task: encodeTask(t),
  };
}

/** What the SQL stores read back: {@link TASK_COLUMNS}, as the driver returns them. */
export interface SqlTaskRow {
  readonly tenant: string;
  readonly owner: string | null;
  /** PostgreSQL returns a bigint as a string, SQLite an integer as a number. */
  readonly version: string | number;
  /** jsonb as parsed JSON (PostgreSQL), text (SQLite). */
  readonly task: unknown;
}

/** The columns every SQL read of whole tasks selects, in {@link SqlTaskRow}'s shape. */
export const TASK_COLUMNS = 'tenant, owner, version, task';

/** The StoredTask of a row read with {@link TASK_COLUMNS}. */
export function storedFromRow(row: SqlTaskRow): StoredTask {
  return { tenant: row.tenant, owner: row.owner ?? undefined, task: decodeTask(row.task), version: Number(row.version) };
}
