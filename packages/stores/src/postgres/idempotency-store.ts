import type { IdempotencyStore, SendClaim, SendKey, SendOutcome } from '@a2a-polyglot/core';
import type { Pool } from 'pg';
import { decodeSendOutcome, encodeSendOutcome } from '../codec.js';
import { purgeDue } from '../send-purge.js';
import { pgError } from './errors.js';
import { quoteSchema } from './pool.js';

/**
 * The sends seen within the idempotency window, in PostgreSQL (table `a2a_sends`, primary key
 * (principal, tenant, message_id)), shared by every instance: a claim is one
 * `INSERT … ON CONFLICT DO UPDATE … WHERE expired`, so of two instances receiving the same send
 * at once exactly one gets the row back and runs it. Expired rows are deleted now and then
 * by the claims themselves (see `purgeDue`).
 */
export class PostgresIdempotencyStore implements IdempotencyStore {
  private readonly table: string;
  private lastPurge = 0;

  constructor(
    private readonly pool: Pool,
    options: { readonly schema?: string } = {},
  ) {
    this.table = `${quoteSchema(options.schema ?? 'public')}.a2a_sends`;
  }

  async claim(key: SendKey, fingerprint: string, now: number, expiresAt: number): Promise<SendClaim> {
    if (purgeDue(this.lastPurge, now)) {
      this.lastPurge = now;
      await this.query(`DELETE FROM ${this.table} WHERE expires_at <= $1`, [now]);
    }
    const keyParams = [key.principal, key.tenant, key.messageId];
    for (;;) {
      const taken = await this.query(
        `INSERT INTO ${this.table} AS s (principal, tenant, message_id, body_hash, expires_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (principal, tenant, message_id) DO UPDATE SET body_hash = EXCLUDED.body_hash, task_id = NULL, reply = NULL, expires_at = EXCLUDED.expires_at
         WHERE s.expires_at <= $6
         RETURNING 1 AS taken`,
        [...keyParams, fingerprint, expiresAt, now],
      );
      if (taken.length > 0) return { kind: 'new' };
      const rows = await this.query<{ body_hash: string; task_id: string | null; reply: unknown }>(
        `SELECT body_hash, task_id, reply FROM ${this.table} WHERE principal = $1 AND tenant = $2 AND message_id = $3`,
        keyParams,
      );
      const row = rows[0];
      // Gone in between (purged): claim again.
      if (row) return { kind: 'existing', fingerprint: row.body_hash, outcome: decodeSendOutcome(row.task_id, row.reply) };
    }
  }

  async record(key: SendKey, fingerprint: string, outcome: SendOutcome, expiresAt: number): Promise<void> {
    const { taskId, reply } = encodeSendOutcome(outcome);
    await this.query(
      `UPDATE ${this.table} SET task_id = $5, reply = $6::jsonb, expires_at = $7 WHERE principal = $1 AND tenant = $2 AND message_id = $3 AND body_hash = $4`,
      [key.principal, key.tenant, key.messageId, fingerprint, taskId, reply, expiresAt],
    );
  }

  async release(key: SendKey, fingerprint: string): Promise<void> {
    await this.query(
      `DELETE FROM ${this.table} WHERE principal = $1 AND tenant = $2 AND message_id = $3 AND body_hash = $4 AND task_id IS NULL AND reply IS NULL`,
      [key.principal, key.tenant, key.messageId, fingerprint],
    );
  }

  private async query<Row extends object = Record<string, unknown>>(sql: string, params: unknown[]): Promise<Row[]> {
    try {
      return (await this.pool.query<Row & Record<string, unknown>>(sql, params)).rows;
    } catch (error) {
      throw pgError(error);
    }
  }
}
