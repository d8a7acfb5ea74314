import type { PushConfigStore } from '@a2a-polyglot/core';
import type { TaskPushNotificationConfig } from '@a2a-polyglot/model';
import { decodePushConfig, encodePushConfig } from '../codec.js';
import { guarded, type SqliteDatabase } from './database.js';

/**
 * Webhook registrations in the SQLite file, scoped by tenant. Replacing a config keeps its
 * place in the task's registration order, as the in-memory store does.
 */
export class SqlitePushConfigStore implements PushConfigStore {
  private readonly putOne;
  private readonly getOne;
  private readonly listAll;
  private readonly deleteOne;
  private readonly deleteAllOf;

  constructor(db: SqliteDatabase) {
    this.putOne = db.prepare(
      `INSERT INTO a2a_push_configs (tenant, task_id, id, position, config)
       VALUES (@tenant, @taskId, @id, (SELECT coalesce(max(position), 0) + 1 FROM a2a_push_configs), @config)
       ON CONFLICT (tenant, task_id, id) DO UPDATE SET config = excluded.config`,
    );
    this.getOne = db.prepare('SELECT config FROM a2a_push_configs WHERE tenant = ? AND task_id = ? AND id = ?');
    this.listAll = db.prepare('SELECT config FROM a2a_push_configs WHERE tenant = ? AND task_id = ? ORDER BY position');
    this.deleteOne = db.prepare('DELETE FROM a2a_push_configs WHERE tenant = ? AND task_id = ? AND id = ?');
    this.deleteAllOf = db.prepare('DELETE FROM a2a_push_configs WHERE tenant = ? AND task_id = ?');
  }

  async put(tenant: string, config: TaskPushNotificationConfig): Promise<void> {
    guarded(() => this.putOne.run({ tenant, taskId: config.taskId, id: config.id, config: encodePushConfig(config) }));
  }

  async get(tenant: string, taskId: string, id: string): Promise<TaskPushNotificationConfig | undefined> {
    const row = guarded(() => this.getOne.get(tenant, taskId, id) as { config: string } | undefined);
    return row && decodePushConfig(row.config);
  }

  async list(tenant: string, taskId: string): Promise<TaskPushNotificationConfig[]> {
    const rows = guarded(() => this.listAll.all(tenant, taskId) as Array<{ config: string }>);
    return rows.map((r) => decodePushConfig(r.config));
  }

  async delete(tenant: string, taskId: string, id: string): Promise<void> {
    guarded(() => this.deleteOne.run(tenant, taskId, id));
  }

  async deleteAll(tenant: string, taskId: string): Promise<void> {
    guarded(() => this.deleteAllOf.run(tenant, taskId));
  }
}
