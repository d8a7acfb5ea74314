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
import { listFilter } from '../list-query.js';
import { storedFromRow, TASK_COLUMNS, taskColumns, type SqlTaskRow } from '../task-columns.js';
import { pageRows, taskPage } from '../task-page.js';
import { partitionCondition, partitionParams } from '../tenant-partition-sql.js';
import { guarded, type SqliteDatabase } from './database.js';
const LEASE_FREE = '(@leaseOwner IS NULL OR lease_owner IS NULL OR lease_owner = @leaseOwner OR lease_expires_at < @now)';
const SET = `context_id = @contextId, owner = @owner, state = @state, status_ts = @statusTs, version = @version, task = @task,
  lease_owner = @leaseOwner, lease_expires_at = @leaseExpiresAt, updated_at = @now`;
const INSERT = `INSERT INTO a2a_tasks (tenant, id, context_id, owner, state, status_ts, version, task, lease_owner, lease_expires_at, updated_at)
  VALUES (@tenant, @id, @contextId, @owner, @state, @statusTs, @version, @task, @leaseOwner, @leaseExpiresAt, @now)`;

/**
 * The embedded durable store: tasks in one SQLite file, for a single instance that must keep
 * its tasks across restarts. Same contract as the in-memory and PostgreSQL stores: each save
 * is one statement whose WHERE clause carries the version and lease checks, every query is
 * scoped by the tenant, and ListTasks pages exactly like the in-memory store.
 */
export class SqliteTaskStore implements TaskStore {
  private readonly insertNew;
  private readonly upsert;
  private readonly update;
  private readonly getOne;
  private readonly deleteOne;
  private readonly renewOne;
  private readonly abandonedRows;

  constructor(private readonly db: SqliteDatabase) {
    this.insertNew = db.prepare(`${INSERT} ON CONFLICT (tenant, id) DO NOTHING`);
    this.upsert = db.prepare(`${INSERT} ON CONFLICT (tenant, id) DO UPDATE SET ${SET} WHERE ${LEASE_FREE}`);
    this.update = db.prepare(`UPDATE a2a_tasks SET ${SET} WHERE tenant = @tenant AND id = @id AND version = @expected AND ${LEASE_FREE}`);
    this.getOne = db.prepare(`SELECT ${TASK_COLUMNS} FROM a2a_tasks WHERE tenant = ? AND id = ?`);
    this.deleteOne = db.prepare('DELETE FROM a2a_tasks WHERE tenant = ? AND id = ?');
    this.renewOne = db.prepare('UPDATE a2a_tasks SET lease_expires_at = ? WHERE tenant = ? AND id = ? AND lease_owner = ?');
    this.abandonedRows = db.prepare(
      `SELECT ${TASK_COLUMNS} FROM a2a_tasks WHERE lease_owner IS NOT NULL AND (lease_expires_at < @now OR lease_owner = @owner)
        AND ${partitionCondition(['@prefix', '@except', '@keep'], (p) => `substr(tenant, 1, length(${p})) = ${p}`)}
        ORDER BY lease_expires_at LIMIT @limit`,
    );
  }

  async get(tenant: string, taskId: string): Promise<StoredTask | undefined> {
    const row = guarded(() => this.getOne.get(tenant, taskId) as SqlTaskRow | undefined);
    return row && storedFromRow(row);
  }

  async save(stored: StoredTask, expectedVersion?: number, lease?: TaskLease): Promise<void> {
    const now = Date.now();
    const params = {
      ...taskColumns(stored),
      leaseOwner: lease?.owner ?? null,
      leaseExpiresAt: lease ? now + lease.ttlMs : null,
      now,
    };
    const changes = guarded(() => {
      if (expectedVersion === 0) return this.insertNew.run(params).changes;
      if (expectedVersion === undefined) return this.upsert.run(params).changes;
      return this.update.run({ ...params, expected: expectedVersion }).changes;
    });
    if (changes === 0) throw versionConflict(stored.task.id);
  }

  async list(query: TaskQuery): Promise<TaskPage> {
    const filter = listFilter(query, () => '?');
    const { pageSize, readLimit } = pageRows(query);
    // One read transaction: the count and the page see the same snapshot.
    const read = this.db.transaction(() => ({
      total: (this.db.prepare(`SELECT count(*) AS n FROM a2a_tasks WHERE ${filter.where}`).get(...filter.params) as { n: number }).n,
      rows: this.db
        .prepare(`SELECT ${TASK_COLUMNS} FROM a2a_tasks WHERE ${filter.pageWhere} ORDER BY status_ts DESC, id DESC LIMIT ${readLimit}`)
        .all(...filter.pageParams) as SqlTaskRow[],
    }));
    const { total, rows } = guarded(() => read());
    return taskPage(rows, storedFromRow, pageSize, total);
  }

  async delete(tenant: string, taskId: string): Promise<void> {
    guarded(() => this.deleteOne.run(tenant, taskId));
  }

  async renewLeases(owner: string, tasks: readonly TaskRef[], ttlMs: number): Promise<TaskRef[]> {
    const expires = Date.now() + ttlMs;
    const renew = this.db.transaction(() => tasks.filter((r) => this.renewOne.run(expires, r.tenant, r.taskId, owner).changes === 0));
    return guarded(() => renew());
  }

  async abandoned(query: AbandonedQuery): Promise<StoredTask[]> {
    const [prefix, except, keep] = partitionParams(query.tenants);
    const params = { now: Date.now(), owner: query.owner ?? null, limit: query.limit, prefix, except, keep };
    const rows = guarded(() => this.abandonedRows.all(params) as SqlTaskRow[]);
    return rows.map(storedFromRow);
  }
}
