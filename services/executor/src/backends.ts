import {
  InMemoryEventLog,
  InMemoryTaskStore,
  LocalTaskSignals,
  type Logger,
  type ReadinessCheck,
  type RequestHandlerOptions,
  type RunQueue,
} from '@a2a-polyglot/core';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { ConfigError, eventLogKind, storeKind, type ExecutorConfig } from './config.js';
import { requiredSetting } from './config/derived.js';
import { loadBackend } from './load-backend.js';
import { pushSecretsFor, sealStoredPushSecrets } from './push-secrets-at-rest.js';
import { openDynamoStore, openPostgresStore } from './shared-store.js';

/** The stores a configuration selects, opened and migrated, ready for the RequestHandler. */
export interface Backends {
  /** Spread into the RequestHandler options (empty for the in-memory defaults). */
  readonly handlerOptions: Pick<RequestHandlerOptions, 'taskStore' | 'pushConfigStore' | 'idempotencyStore' | 'eventLog' | 'cluster'>;
  /** Probes of the opened backends for `/readyz` and gRPC health (empty in memory). */
  readonly checks: readonly ReadinessCheck[];
  /** One line for the startup log, e.g. `PostgreSQL (schema public) + Redis event log`. */
  readonly description: string;
  /** The run queue (`queue.enabled`): every agent's handler enqueues and claims there under its own name. */
  readonly queue?: RunQueue;
  /** The Redis command connection (ioredis) when Redis is configured: rate limits share budgets through it. */
  readonly redis?: unknown;
  /** Closes connections and files (after the handler has shut down). */
  close(): Promise<void>;
}

/**
 * The in-memory task store with the configured bounds (`store.memoryMaxBytes`,
 * `store.memoryInterruptedIdleMs`): the store of the `memory` kind (each agent in `agents` has its own).
 */
export function memoryTaskStore(config: ExecutorConfig): InMemoryTaskStore {
  return new InMemoryTaskStore({ maxBytes: config.store.memoryMaxBytes, interruptedIdleMs: config.store.memoryInterruptedIdleMs });
}

/**
 * The in-memory event log with the configured byte budget (`eventLog.memoryMaxBytes`): the log
 * of every handler whose backends bring no Redis log (each agent in `agents` has its own).
 */
export function memoryEventLog(config: ExecutorConfig): InMemoryEventLog {
  return new InMemoryEventLog({ maxBytes: config.eventLog.memoryMaxBytes });
}

/**
 * Opens what `config.store` and `config.eventLog` select and runs the schema migrations:
 *
 * - memory (default): core's in-memory stores, no durable mode, nothing to open.
 * - sqlite: one file, durable mode for one instance (leases let a restart fail the tasks
 *   the previous process was running).
 * - postgres or dynamodb [+ redis]: durable mode for several instances; Redis carries the
 *   event log and the cancel signals between them (without it: one instance, like SQLite).
 *
 * Drivers are loaded only when selected, so the in-memory default never loads them.
 */
export async function openBackends(config: ExecutorConfig, logger: Logger): Promise<Backends> {
  const store = storeKind(config);
  const log = eventLogKind(config);
  // The queue hands runs between instances: the shared store claims them, the Redis log and signals follow them.
  if (config.queue.enabled && (store !== 'postgres' || log !== 'redis'))
    throw new ConfigError('Invalid configuration: queue.enabled needs store.kind postgres and the Redis event log (eventLog.url)');
  const lease = { leaseMs: config.lease.ttlMs, sweepIntervalMs: config.lease.sweepIntervalMs };
  if (store === 'memory') {
    if (config.push.secretKey) logger.warn('push.secretKey has no effect on the in-memory store: it keeps nothing at rest');
    return { handlerOptions: {}, checks: [], description: 'in-memory task store', close: async () => undefined };
  }
  const secrets = pushSecretsFor(config);

  if (store === 'sqlite') {
    const sqlite = loadBackend('sqlite');
    const path = resolve(config.store.path ?? 'a2a-tasks.db');
    let db: ReturnType<typeof sqlite.openSqlite>;
    try {
      db = sqlite.openSqlite(path);
      sqlite.migrateSqlite(db);
    } catch (error) {
      throw new Error(`Cannot open the SQLite task store ${path}: ${(error as Error).message}`);
    }
    const instanceId = config.instanceId ?? hostname();
    const pushConfigStore = new sqlite.SqlitePushConfigStore(db, { secrets });
    try {
      await sealStoredPushSecrets(pushConfigStore, logger);
    } catch (error) {
      db.close();
      throw new Error(`Cannot encrypt the push config secrets in ${path}: ${(error as Error).message}`);
    }
    return {
      handlerOptions: {
        taskStore: new sqlite.SqliteTaskStore(db),
        pushConfigStore,
        idempotencyStore: new sqlite.SqliteIdempotencyStore(db),
        cluster: { instanceId, signals: new LocalTaskSignals(), ...lease },
      },
      checks: [{ name: 'store', probe: async () => void db.prepare('SELECT 1').get() }],
      description: `SQLite task store ${path} (instance ${instanceId})`,
      close: async () => {
        db.close();
      },
    };
  }

  const shared = store === 'postgres' ? await openPostgresStore(config, logger, secrets) : await openDynamoStore(config, logger, secrets);
  const instanceId = config.instanceId ?? `${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 6)}`;
  if (log === 'memory') {
    return {
      handlerOptions: { ...shared.stores, cluster: { instanceId, signals: new LocalTaskSignals(), ...lease } },
      checks: [shared.check],
      description: `${shared.description}, in-memory event log: one instance only (instance ${instanceId})`,
      close: () => shared.close(),
    };
  }

  const redis = loadBackend('redis');
  let connections: Awaited<ReturnType<typeof redis.RedisConnections.connect>>;
  try {
    connections = await redis.RedisConnections.connect({ url: requiredSetting(config.eventLog.url, 'eventLog.url'), logger });
  } catch (error) {
    await shared.close().catch(() => undefined);
    throw error;
  }
  const prefix = config.eventLog.prefix;
  const eventLog = new redis.RedisEventLog(connections, {
    prefix,
    retentionMs: config.eventLog.retentionMs,
    maxEventsPerTask: config.eventLog.maxEventsPerTask,
    maxBytesPerTask: config.eventLog.maxBytesPerTask,
    logger,
  });
  return {
    handlerOptions: { ...shared.stores, eventLog, cluster: { instanceId, signals: new redis.RedisTaskSignals(connections, { prefix, logger }), ...lease } },
    checks: [shared.check, { name: 'event-log', probe: async () => void (await connections.commands.ping()) }],
    redis: connections.commands,
    ...(config.queue.enabled && shared.runQueue && { queue: shared.runQueue }),
    description: `${shared.description} + Redis event log (prefix ${prefix})${config.queue.enabled ? `, run queue (role ${config.role})` : ''}, instance ${instanceId}`,
    close: async () => {
      eventLog.close();
      await Promise.all([connections.close(), shared.close()]);
    },
  };
}
