import type { Logger, ReadinessCheck, RequestHandlerOptions } from '@a2a-polyglot/core';
import type { RunQueue } from '@a2a-polyglot/core';
import type { PushSecrets } from '@a2a-polyglot/stores';
import type { ExecutorConfig } from './config.js';
import { requiredSetting } from './config/derived.js';
import { loadBackend } from './load-backend.js';
import { sealStoredPushSecrets } from './push-secrets-at-rest.js';

/** A store that several instances share (PostgreSQL or DynamoDB), opened and migrated. */
export interface SharedStore {
  readonly stores: Required<Pick<RequestHandlerOptions, 'taskStore' | 'pushConfigStore' | 'idempotencyStore'>>;
  /** The `store` probe of `/readyz`. */
  readonly check: ReadinessCheck;
  /** For the startup log, e.g. `PostgreSQL task store (schema public)`. */
  readonly description: string;
  /** The run queue on the same database (`queue.enabled`), where the store has one: PostgreSQL. */
  readonly runQueue?: RunQueue;
  close(): Promise<void>;
}

/**
 * Opens the PostgreSQL pool and migrates the schema, push secrets included (`secrets`). The
 * driver is loaded only here, so a deployment on another store never needs `pg`.
 */
export async function openPostgresStore(config: ExecutorConfig, logger: Logger, secrets: PushSecrets): Promise<SharedStore> {
  const postgres = loadBackend('postgres');
  const { redactUrl } = require('@a2a-polyglot/stores') as typeof import('@a2a-polyglot/stores');
  const schema = config.store.schema;
  const url = requiredSetting(config.store.url, 'store.url');
  const pool = postgres.createPostgresPool({ url, maxConnections: config.store.maxConnections, logger });
  const pushConfigStore = new postgres.PostgresPushConfigStore(pool, { schema, secrets });
  try {
    await postgres.migratePostgres(pool, { schema });
    await sealStoredPushSecrets(pushConfigStore, logger);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new Error(`Cannot prepare the PostgreSQL task store at ${redactUrl(url)} (schema ${schema}): ${(error as Error).message}`);
  }
  return {
    stores: {
      taskStore: new postgres.PostgresTaskStore(pool, { schema }),
      pushConfigStore,
      idempotencyStore: new postgres.PostgresIdempotencyStore(pool, { schema }),
    },
    check: { name: 'store', probe: async () => void (await pool.query('SELECT 1')) },
    description: `PostgreSQL task store (schema ${schema})`,
    runQueue: new postgres.PostgresRunQueue(pool, { schema }),
    close: () => pool.end(),
  };
}

/**
 * Opens a DynamoDB client and creates the table when missing, push secrets included
 * (`secrets`). The AWS SDK is loaded only here; credentials come from its default chain
 * (environment, shared config, instance or task role), the region and endpoint from the
 * configuration when set.
 */
export async function openDynamoStore(config: ExecutorConfig, logger: Logger, secrets: PushSecrets): Promise<SharedStore> {
  const dynamo = loadBackend('dynamodb');
  const table = requiredSetting(config.store.table, 'store.table');
  const client = dynamo.createDynamoClient({ region: config.store.region, endpoint: config.store.endpoint });
  const pushConfigStore = new dynamo.DynamoPushConfigStore(client, { table, secrets });
  let ttlEnabled: boolean;
  try {
    ttlEnabled = (await dynamo.migrateDynamo(client, { table })).ttlEnabled;
    await sealStoredPushSecrets(pushConfigStore, logger);
  } catch (error) {
    client.destroy();
    throw new Error(
      `Cannot prepare the DynamoDB task store table ${table}${config.store.endpoint ? ` at ${config.store.endpoint}` : ''}: ${(error as Error).message}`,
    );
  }
  const retentionMs = config.store.retentionMs;
  if (!ttlEnabled && retentionMs > 0) logger.warn({ table }, 'This DynamoDB endpoint has no TTL: finished tasks will not expire');
  const taskStore = new dynamo.DynamoTaskStore(client, { table, retentionMs });
  return {
    stores: { taskStore, pushConfigStore, idempotencyStore: new dynamo.DynamoIdempotencyStore(client, { table }) },
    // A strongly consistent read of a key that never exists: the data plane, not DescribeTable.
    check: { name: 'store', probe: async () => void (await taskStore.get('', 'a2a-readiness-probe')) },
    description: `DynamoDB task store (table ${table}${retentionMs > 0 && ttlEnabled ? `, finished tasks kept ${Math.round(retentionMs / 3_600_000)} h` : ''})`,
    close: async () => client.destroy(),
  };
}
