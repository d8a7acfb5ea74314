import {
  versionConflict,
  type AbandonedQuery,
  type StoredTask,
  type TaskLease,
  type TaskPage,
  type TaskQuery,
  type TaskRef,
  type TaskStore,
} from '@a2a-polyglot/core';
import type { Pool } from 'pg';
import { listFilter } from '../list-query.js';
import { storedFromRow, TASK_COLUMNS, taskColumns, type SqlTaskRow } from '../task-columns.js';
import { pageRows, taskPage } from '../task-page.js';
import { partitionCondition, partitionParams } from '../tenant-partition-sql.js';
import { pgError } from './errors.js';
import { quoteSchema } from './pool.js';

/**
 * Tasks in PostgreSQL, shared by every instance. Each save is one statement whose WHERE clause
 * carries the optimistic-concurrency check (version) and the lease check, so two writers never
 * silently overwrite each other and a write is either whole or absent. Every query is scoped
 * by the tenant. Lease times use the database clock, so instances need not agree on the time.
 */
export class PostgresTaskStore implements TaskStore {
  private readonly table: string;

  constructor(
    private readonly pool: Pool,
    options: { readonly schema?: string } = {},
  ) {
    this.table = `${quoteSchema(options.schema ?? 'public')}.a2a_tasks`;
  }

  async get(tenant: string, taskId: string): Promise<StoredTask | undefined> {
    const rows = await this.query<SqlTaskRow>(`SELECT ${TASK_COLUMNS} FROM ${this.table} WHERE tenant = $1 AND id = $2`, [tenant, taskId]);
    return rows[0] && storedFromRow(rows[0]);
  }

  async save(stored: StoredTask, expectedVersion?: number, lease?: TaskLease): Promise<void> {
    const c = taskColumns(stored);
    const params: unknown[] = [c.tenant, c.id, c.contextId, c.owner, c.state, c.statusTs, c.version, c.task, lease?.owner ?? null, lease?.ttlMs ?? 0];
    const leaseSet = `lease_owner = $9::text, lease_expires_at = CASE WHEN $9::text IS NULL THEN NULL ELSE now() + $10::bigint * interval '1 millisecond' END, updated_at = now()`;
    const leaseFree = (table: string) =>
      `($9::text IS NULL OR ${table}.lease_owner IS NULL OR ${table}.lease_owner = $9::text OR ${table}.lease_expires_at < now())`;
    const values = `($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::text, CASE WHEN $9::text IS NULL THEN NULL ELSE now() + $10::bigint * interval '1 millisecond' END)`;
    const insert = `INSERT INTO ${this.table} AS t (tenant, id, context_id, owner, state, status_ts, version, task, lease_owner, lease_expires_at) VALUES ${values}`;
    const update = `context_id = $3, owner = $4, state = $5, status_ts = $6, version = $7, task = $8::jsonb, ${leaseSet}`;
    let sql: string;
    if (expectedVersion === 0) {
      sql = `${insert} ON CONFLICT (tenant, id) DO NOTHING`;
    } else if (expectedVersion === undefined) {
      sql = `${insert} ON CONFLICT (tenant, id) DO UPDATE SET ${update} WHERE ${leaseFree('t')}`;
    } else {
      params.push(expectedVersion);
      sql = `UPDATE ${this.table} AS t SET ${update} WHERE t.tenant = $1 AND t.id = $2 AND t.version = $11 AND ${leaseFree('t')}`;
    }
    const result = await this.run(sql, params);
    if (result === 0) throw versionConflict(c.id);
  }

  async list(query: TaskQuery): Promise<TaskPage> {
    const filter = listFilter(query, (n) => `$${n}`);
    const { pageSize, readLimit } = pageRows(query);
    const [count, rows] = await Promise.all([
      this.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.table} WHERE ${filter.where}`, filter.params),
      this.query<SqlTaskRow>(
        `SELECT ${TASK_COLUMNS} FROM ${this.table} WHERE ${filter.pageWhere} ORDER BY status_ts DESC, id DESC LIMIT ${readLimit}`,
        filter.pageParams,
      ),
    ]);
    return taskPage(rows, storedFromRow, pageSize, Number(count[0]?.n ?? 0));
  }

  async delete(tenant: string, taskId: string): Promise<void> {
    await this.run(`DELETE FROM ${this.table} WHERE tenant = $1 AND id = $2`, [tenant, taskId]);
  }

  async renewLeases(owner: string, tasks: readonly TaskRef[], ttlMs: number): Promise<TaskRef[]> {
    if (tasks.length === 0) return [];
    const rows = await this.query<{ tenant: string; id: string }>(
      `UPDATE ${this.table} AS t SET lease_expires_at = now() + $2::bigint * interval '1 millisecond'
         FROM unnest($3::text[], $4::text[]) AS r(tenant, id)
        WHERE t.tenant = r.tenant AND t.id = r.id AND t.lease_owner = $1
        RETURNING t.tenant, t.id`,
      [owner, ttlMs, tasks.map((r) => r.tenant), tasks.map((r) => r.taskId)],
    );
    const renewed = new Set(rows.map((r) => `${r.tenant}\u0000${r.id}`));
    return tasks.filter((r) => !renewed.has(`${r.tenant}\u0000${r.taskId}`));
  }

  async abandoned(query: AbandonedQuery): Promise<StoredTask[]> {
    const rows = await this.query<SqlTaskRow>(
      `SELECT ${TASK_COLUMNS} FROM ${this.table}
        WHERE lease_owner IS NOT NULL AND (lease_expires_at < now() OR lease_owner = $1)
          AND ${partitionCondition(['$3::text', '$4::text', '$5::text'], (p) => `starts_with(tenant, ${p})`)}
        ORDER BY lease_expires_at LIMIT $2`,
      [query.owner ?? null, query.limit, ...partitionParams(query.tenants)],
    );
    return rows.map(storedFromRow);
  }

  private async query<R extends object>(sql: string, params: unknown[]): Promise<R[]> {
    try {
      return (await this.pool.query<R>(sql, params)).rows;
    } catch (error) {
      throw pgError(error);
    }
  }

  private async run(sql: string, params: unknown[]): Promise<number> {
    try {
      return (await this.pool.query(sql, params)).rowCount ?? 0;
    } catch (error) {
      throw pgError(error);
    }
  }
}
