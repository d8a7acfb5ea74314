import type { PushConfigStore, StoredPushConfig } from '@a2a-polyglot/core';
import type { Pool } from 'pg';
import { decodePushConfig, encodePushConfig, resealedPushConfig } from '../codec.js';
import { PushSecrets, type PushConfigStoreOptions } from '../push-secrets.js';
import { pgError } from './errors.js';
import { quoteSchema } from './pool.js';

/**
 * Webhook registrations in PostgreSQL, next to the tasks and scoped like them by tenant.
 * Replacing a config keeps its place in the task's registration order, as the in-memory
 * store does. With `secrets` holding a key, token and credentials are encrypted at rest.
 */
export class PostgresPushConfigStore implements PushConfigStore {
  private readonly table: string;
  private readonly secrets: PushSecrets;

  constructor(
    private readonly pool: Pool,
    options: { readonly schema?: string } & PushConfigStoreOptions = {},
  ) {
    this.table = `${quoteSchema(options.schema ?? 'public')}.a2a_push_configs`;
    this.secrets = options.secrets ?? PushSecrets.NONE;
  }

  async put(tenant: string, config: StoredPushConfig): Promise<void> {
    await this.query(
      `INSERT INTO ${this.table} (tenant, task_id, id, config) VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (tenant, task_id, id) DO UPDATE SET config = EXCLUDED.config`,
      [tenant, config.taskId, config.id, encodePushConfig(tenant, config, this.secrets)],
    );
  }

  async get(tenant: string, taskId: string, id: string): Promise<StoredPushConfig | undefined> {
    const rows = await this.query(`SELECT config FROM ${this.table} WHERE tenant = $1 AND task_id = $2 AND id = $3`, [tenant, taskId, id]);
    return rows[0] && decodePushConfig(tenant, rows[0].config, this.secrets);
  }

  async list(tenant: string, taskId: string): Promise<StoredPushConfig[]> {
    const rows = await this.query(`SELECT config FROM ${this.table} WHERE tenant = $1 AND task_id = $2 ORDER BY position`, [tenant, taskId]);
    return rows.map((r) => decodePushConfig(tenant, r.config, this.secrets));
  }

  /**
   * The migration of rows written before a key was set: seals every plaintext secret. Each
   * row is rewritten only if it is still what was read (an instance replacing it meanwhile
   * wins). Returns how many configs it rewrote (0 without a key). Idempotent.
   */
  async sealPlaintextSecrets(): Promise<number> {
    if (!this.secrets.enabled) return 0;
    const rows = await this.query<{ tenant: string; task_id: string; id: string; config: unknown }>(
      `SELECT tenant, task_id, id, config FROM ${this.table}`,
      [],
    );
    let sealed = 0;
    for (const row of rows) {
      const resealed = resealedPushConfig(row.tenant, row.config, this.secrets);
      if (resealed === undefined) continue;
      const updated = await this.query(
        `UPDATE ${this.table} SET config = $4::jsonb WHERE tenant = $1 AND task_id = $2 AND id = $3 AND config = $5::jsonb RETURNING id`,
        [row.tenant, row.task_id, row.id, resealed, JSON.stringify(row.config)],
      );
      sealed += updated.length;
    }
    return sealed;
  }

  async delete(tenant: string, taskId: string, id: string): Promise<void> {
    await this.query(`DELETE FROM ${this.table} WHERE tenant = $1 AND task_id = $2 AND id = $3`, [tenant, taskId, id]);
  }

  async deleteAll(tenant: string, taskId: string): Promise<void> {
    await this.query(`DELETE FROM ${this.table} WHERE tenant = $1 AND task_id = $2`, [tenant, taskId]);
  }

  private async query<Row extends object = { config: unknown }>(sql: string, params: unknown[]): Promise<Row[]> {
    try {
      return (await this.pool.query<Row & Record<string, unknown>>(sql, params)).rows;
    } catch (error) {
      throw pgError(error);
    }
  }
}
