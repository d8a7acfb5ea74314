import type { ClaimedRun, QueuedRun, RunQueue } from '@a2a-polyglot/core';
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { decodeQueuedRun, encodeQueuedRun } from '../queued-run-codec.js';
import { pgError } from './errors.js';
import { quoteSchema } from './pool.js';

/**
 * The run queue in PostgreSQL (table `a2a_run_queue`, migration 4), next to the tasks it runs.
 * A claim is one statement: the oldest claimable row of the agent is locked with
 * `FOR UPDATE SKIP LOCKED` (concurrent workers skip each other's rows instead of waiting) and
 * updated with the worker and its lease in the same step, so no two workers ever hold one row.
 * Lease times use the database clock, so instances need not agree on the time.
 */
export class PostgresRunQueue implements RunQueue {
  private readonly table: string;

  constructor(
    private readonly pool: Pool,
    options: { readonly schema?: string } = {},
  ) {
    this.table = `${quoteSchema(options.schema ?? 'public')}.a2a_run_queue`;
  }

  async enqueue(run: QueuedRun): Promise<void> {
    await this.query(`INSERT INTO ${this.table} (id, agent, tenant, task_id, run) VALUES ($1, $2, $3, $4, $5::jsonb)`, [
      randomUUID(),
      run.agent,
      run.tenant,
      run.taskId,
      encodeQueuedRun(run),
    ]);
  }

  async claim(agent: string, worker: string, leaseMs: number): Promise<ClaimedRun | undefined> {
    const rows = await this.query<{ id: string; run: unknown; attempts: number }>(
      `UPDATE ${this.table} AS q
          SET claimed_by = $2, lease_expires_at = now() + $3::bigint * interval '1 millisecond', attempts = q.attempts + 1
        WHERE q.id = (
          SELECT id FROM ${this.table}
           WHERE agent = $1 AND (claimed_by IS NULL OR lease_expires_at < now())
           ORDER BY enqueued_at
           LIMIT 1
           FOR UPDATE SKIP LOCKED)
        RETURNING q.id, q.run, q.attempts`,
      [agent, worker, leaseMs],
    );
    const row = rows[0];
    return row && { id: row.id, run: decodeQueuedRun(row.run), attempt: row.attempts };
  }

  async heartbeat(worker: string, ids: readonly string[], leaseMs: number): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.query<{ id: string }>(
      `UPDATE ${this.table} SET lease_expires_at = now() + $2::bigint * interval '1 millisecond'
        WHERE id = ANY($3::text[]) AND claimed_by = $1
        RETURNING id`,
      [worker, leaseMs, [...ids]],
    );
    const held = new Set(rows.map((r) => r.id));
    return ids.filter((id) => !held.has(id));
  }

  async ack(id: string, worker: string): Promise<void> {
    await this.query(`DELETE FROM ${this.table} WHERE id = $1 AND claimed_by = $2`, [id, worker]);
  }

  async release(id: string, worker: string): Promise<void> {
    await this.query(`UPDATE ${this.table} SET claimed_by = NULL, lease_expires_at = NULL WHERE id = $1 AND claimed_by = $2`, [id, worker]);
  }

  async holds(tenant: string, taskId: string): Promise<boolean> {
    const rows = await this.query(`SELECT 1 FROM ${this.table} WHERE tenant = $1 AND task_id = $2 LIMIT 1`, [tenant, taskId]);
    return rows.length > 0;
  }

  private async query<R extends object>(sql: string, params: unknown[]): Promise<R[]> {
    try {
      return (await this.pool.query<R>(sql, params)).rows;
    } catch (error) {
      throw pgError(error);
    }
  }
}
