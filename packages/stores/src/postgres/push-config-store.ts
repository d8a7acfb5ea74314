import type { PushConfigStore } from '@a2a-polyglot/core';
import type { TaskPushNotificationConfig } from '@a2a-polyglot/model';
import type { Pool } from 'pg';
import { decodePushConfig, encodePushConfig } from '../codec.js';
import { pgError } from './errors.js';
import { quoteSchema } from './pool.js';

/**
 * Webhook registrations in PostgreSQL, next to the tasks and scoped like them by tenant.
 * Replacing a config keeps its place in the task's registration order, as the in-memory
 * store does.
 */
export class PostgresPushConfigStore implements PushConfigStore {
  private readonly table: string;

  constructor(
    private readonly pool: Pool,
    options: { readonly schema?: string } = {},
  ) {
    this.table = `${quoteSchema(options.schema ?? 'public')}.a2a_push_configs`;
  }

  async put(tenant: string, config: TaskPushNotificationConfig): Promise<void> {
    await this.query(
      `INSERT INTO ${this.table} (tenant, task_id, id, config) VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (tenant, task_id, id) DO UPDATE SET config = EXCLUDED.config`,
      [tenant, config.taskId, config.id, encodePushConfig(config)],
    );
  }

  async get(tenant: string, taskId: string, id: string): Promise<TaskPushNotificationConfig | undefined> {
    const rows = await this.query(`SELECT config FROM ${this.table} WHERE tenant = $1 AND task_id = $2 AND id = $3`, [tenant, taskId, id]);
    return rows[0] && decodePushConfig(rows[0].config);
  }

  async list(tenant: string, taskId: string): Promise<TaskPushNotificationConfig[]> {
    const rows = await this.query(`SELECT config FROM ${this.table} WHERE tenant = $1 AND task_id = $2 ORDER BY position`, [tenant, taskId]);
    return rows.map((r) => decodePushConfig(r.config));
  }

  async delete(tenant: string, taskId: string, id: string): Promise<void> {
    await this.query(`DELETE FROM ${this.table} WHERE tenant = $1 AND task_id = $2 AND id = $3`, [tenant, taskId, id]);
  }

  async deleteAll(tenant: string, taskId: string): Promise<void> {
    await this.query(`DELETE FROM ${this.table} WHERE tenant = $1 AND task_id = $2`, [tenant, taskId]);
  }

  private async query(sql: string, params: unknown[]): Promise<Array<{ config: unknown }>> {
    try {
      return (await this.pool.query<{ config: unknown }>(sql, params)).rows;
    } catch (error) {
      throw pgError(error);
    }
  }
}
