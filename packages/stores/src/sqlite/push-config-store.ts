import type { PushConfigStore, StoredPushConfig } from '@a2a-polyglot/core';
import { decodePushConfig, encodePushConfig, resealedPushConfig } from '../codec.js';
import { PushSecrets, type PushConfigStoreOptions } from '../push-secrets.js';
import { guarded, type SqliteDatabase } from './database.js';

interface ConfigRow {
  readonly tenant: string;
  readonly task_id: string;
  readonly id: string;
  readonly config: string;
}

/**
 * Webhook registrations in the SQLite file, scoped by tenant. Replacing a config keeps its
 * place in the task's registration order, as the in-memory store does. With `secrets` holding
 * a key, token and credentials are encrypted at rest.
 */
export class SqlitePushConfigStore implements PushConfigStore {
  private readonly db: SqliteDatabase;
  private readonly secrets: PushSecrets;
  private readonly putOne;
  private readonly getOne;
  private readonly listAll;
  private readonly deleteOne;
  private readonly deleteAllOf;

  constructor(db: SqliteDatabase, options: PushConfigStoreOptions = {}) {
    this.db = db;
    this.secrets = options.secrets ?? PushSecrets.NONE;
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

  async put(tenant: string, config: StoredPushConfig): Promise<void> {
    guarded(() => this.putOne.run({ tenant, taskId: config.taskId, id: config.id, config: encodePushConfig(tenant, config, this.secrets) }));
  }

  async get(tenant: string, taskId: string, id: string): Promise<StoredPushConfig | undefined> {
    const row = guarded(() => this.getOne.get(tenant, taskId, id) as { config: string } | undefined);
    return row && decodePushConfig(tenant, row.config, this.secrets);
  }

  async list(tenant: string, taskId: string): Promise<StoredPushConfig[]> {
    const rows = guarded(() => this.listAll.all(tenant, taskId) as Array<{ config: string }>);
    return rows.map((r) => decodePushConfig(tenant, r.config, this.secrets));
  }

  async delete(tenant: string, taskId: string, id: string): Promise<void> {
    guarded(() => this.deleteOne.run(tenant, taskId, id));
  }

  async deleteAll(tenant: string, taskId: string): Promise<void> {
    guarded(() => this.deleteAllOf.run(tenant, taskId));
  }

  /**
   * The migration of rows written before a key was set: seals every plaintext secret, in one
   * transaction. Returns how many configs it rewrote (0 without a key). Idempotent.
   */
  async sealPlaintextSecrets(): Promise<number> {
    if (!this.secrets.enabled) return 0;
    const update = this.db.prepare('UPDATE a2a_push_configs SET config = ? WHERE tenant = ? AND task_id = ? AND id = ?');
    const seal = this.db.transaction((): number => {
      let sealed = 0;
      for (const row of this.db.prepare('SELECT tenant, task_id, id, config FROM a2a_push_configs').all() as ConfigRow[]) {
        const resealed = resealedPushConfig(row.tenant, row.config, this.secrets);
        if (resealed === undefined) continue;
        update.run(resealed, row.tenant, row.task_id, row.id);
        sealed++;
      }
      return sealed;
    });
    return guarded(() => seal.immediate());
  }
}
