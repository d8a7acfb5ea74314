/** The durability sections: `store` (tasks, push configs), `eventLog` (streams, resumes), `lease`, and the `agentRegistry` table. */
import { DEFAULT_EVENT_LOG_MAX_BYTES, DEFAULT_INTERRUPTED_IDLE_MS, DEFAULT_MEMORY_STORE_MAX_BYTES } from '@a2a-polyglot/core';
import { DEFAULT_REDIS_LOG_MAX_BYTES_PER_TASK, DYNAMO_TABLE_NAME, DYNAMO_TABLE_NAME_RULE } from '@a2a-polyglot/stores';
import { absoluteUrl, bool, connectionUrl, intIn, matching, nonEmpty, nonNegativeMs, oneOf, section } from './values.js';
import { z } from 'zod';
import { settingMeta } from './setting.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A DynamoDB table name (`store.table`, `agentRegistry.table`). */
const dynamoTableName = matching(DYNAMO_TABLE_NAME, `a DynamoDB table name (${DYNAMO_TABLE_NAME_RULE})`);
/** An AWS region (`store.region`, `agentRegistry.region`). */
const awsRegion = matching(/^[a-z0-9-]{1,64}$/, 'an AWS region such as "eu-west-1"');

/** `store`: where tasks and push configs live. */
export const storeSchema = section({
  kind: oneOf(['memory', 'sqlite', 'postgres', 'dynamodb'])
    .optional()
    .describe(
      'Where tasks and push configs live: memory, sqlite, postgres or dynamodb. Unset: postgres with url, sqlite with path, dynamodb with table, else memory.',
    )
    .register(settingMeta, { env: 'A2A_STORE', flag: '--store' }),
  path: nonEmpty.optional().describe('SQLite file (relative to the config file).').register(settingMeta, { env: 'A2A_SQLITE_PATH' }),
  url: connectionUrl('postgres:', 'postgresql:').optional().describe('PostgreSQL URL.').register(settingMeta, { env: 'A2A_POSTGRES_URL' }),
  schema: matching(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'a schema name (letters, digits, _)')
    .default('public')
    .describe('PostgreSQL schema of the tables.')
    .register(settingMeta, { env: 'A2A_POSTGRES_SCHEMA' }),
  maxConnections: intIn(1, 1000).default(10).describe('PostgreSQL pool size.').register(settingMeta, { env: 'A2A_POSTGRES_MAX_CONNECTIONS' }),
  table: dynamoTableName
    .optional()
    .describe('DynamoDB table of the tasks, created when missing.')
    .register(settingMeta, { env: 'A2A_DYNAMODB_TABLE', flag: '--dynamodb-table' }),
  endpoint: absoluteUrl
    .optional()
    .describe("DynamoDB endpoint URL: DynamoDB Local, an emulator, a VPC endpoint. Unset: the region's.")
    .register(settingMeta, { env: 'A2A_DYNAMODB_ENDPOINT', flag: '--dynamodb-endpoint' }),
  region: awsRegion
    .optional()
    .describe("AWS region of the table. Unset: the SDK's (AWS_REGION, shared config).")
    .register(settingMeta, { env: 'A2A_DYNAMODB_REGION', flag: '--dynamodb-region' }),
  retentionMs: intIn(0, 10 * 365 * 24 * 60 * 60 * 1000)
    .default(30 * DAY_MS)
    .describe('DynamoDB: how long a finished task is kept (its TTL).')
    .register(settingMeta, { env: 'A2A_DYNAMODB_RETENTION_MS' }),
  memoryMaxBytes: intIn(1024 * 1024, 1024 ** 4)
    .default(DEFAULT_MEMORY_STORE_MAX_BYTES)
    .describe('In-memory store: most estimated bytes of tasks held.')
    .register(settingMeta, { env: 'A2A_MEMORY_STORE_MAX_BYTES' }),
  memoryInterruptedIdleMs: intIn(0, 365 * 24 * 60 * 60 * 1000)
    .default(DEFAULT_INTERRUPTED_IDLE_MS)
    .describe('In-memory store: an input-required / auth-required task idle this long is dropped; 0 never.')
    .register(settingMeta, { env: 'A2A_MEMORY_STORE_INTERRUPTED_IDLE_MS' }),
});

/** `eventLog`: where task events are logged for streams and resumes. */
export const eventLogSchema = section({
  kind: oneOf(['memory', 'redis']).optional().describe('Unset: redis with url, else memory.').register(settingMeta, { env: 'A2A_EVENT_LOG' }),
  url: connectionUrl('redis:', 'rediss:').optional().describe('Redis URL of the event log.').register(settingMeta, { env: 'A2A_REDIS_URL' }),
  prefix: nonEmpty.default('a2a').describe('Prefix of the Redis keys.').register(settingMeta, { env: 'A2A_REDIS_PREFIX' }),
  retentionMs: nonNegativeMs
    .default(5 * 60_000)
    .describe("How long a finished task's events stay for resumes.")
    .register(settingMeta, { env: 'A2A_EVENT_RETENTION_MS' }),
  maxEventsPerTask: intIn(1, 1_000_000).default(4096).describe('Most events kept per task.'),
  memoryMaxBytes: intIn(1024 * 1024, 1024 ** 4)
    .default(DEFAULT_EVENT_LOG_MAX_BYTES)
    .describe('In-memory event log: most estimated bytes of events held in all task logs.')
    .register(settingMeta, { env: 'A2A_MEMORY_EVENT_LOG_MAX_BYTES' }),
  maxBytesPerTask: intIn(0, 1024 ** 4)
    .default(DEFAULT_REDIS_LOG_MAX_BYTES_PER_TASK)
    .describe("Redis event log: most bytes of Redis memory one task's log takes; 0 no bound.")
    .register(settingMeta, { env: 'A2A_EVENT_LOG_MAX_BYTES_PER_TASK' }),
});

/** `lease`: leases of running tasks (durable stores only). */
export const leaseSchema = section({
  ttlMs: intIn(100, 24 * 60 * 60 * 1000)
    .default(30_000)
    .describe('Lease of a running task; renewed while it runs.')
    .register(settingMeta, { env: 'A2A_LEASE_MS' }),
  sweepIntervalMs: intIn(10, 24 * 60 * 60 * 1000)
    .default(10_000)
    .describe('How often expired leases are swept.')
    .register(settingMeta, { env: 'A2A_LEASE_SWEEP_MS' }),
});

/** `queue`: the run queue shared by the instances (PostgreSQL store with the Redis event log). */
export const queueSchema = section({
  enabled: bool
    .default(false)
    .describe('Sends are stored and queued; a worker on any instance runs them (needs store postgres and the Redis event log).')
    .register(settingMeta, { env: 'A2A_QUEUE', flag: '--queue' }),
  pollMs: intIn(10, 60_000).default(100).describe('How often an idle worker looks for queued runs.').register(settingMeta, { env: 'A2A_QUEUE_POLL_MS' }),
  concurrency: intIn(1, 100_000)
    .default(16)
    .describe('Most queued runs of one agent this instance executes at once.')
    .register(settingMeta, { env: 'A2A_QUEUE_CONCURRENCY' }),
});

/**
 * `agentRegistry`: agents kept in a PostgreSQL table (changes announced by LISTEN/NOTIFY) or in
 * a DynamoDB table (changes found by polling), applied without a restart.
 */
export const agentRegistrySchema = section({
  kind: oneOf(['postgres', 'dynamodb'])
    .optional()
    .describe('Where the registry lives: postgres or dynamodb. Unset: postgres with url, dynamodb with table, else no registry.')
    .register(settingMeta, { env: 'A2A_AGENT_REGISTRY' }),
  url: connectionUrl('postgres:', 'postgresql:')
    .optional()
    .describe('PostgreSQL URL of the registry. Unset: no registry.')
    .register(settingMeta, { env: 'A2A_AGENT_REGISTRY_URL' }),
  schema: matching(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'a schema name (letters, digits, _)')
    .default('public')
    .describe('Schema of the a2a_agents table.')
    .register(settingMeta, { env: 'A2A_AGENT_REGISTRY_SCHEMA' }),
  resyncMs: nonNegativeMs
    .default(30_000)
    .describe('PostgreSQL: full re-read interval, the fallback to notifications; 0 turns it off.')
    .register(settingMeta, { env: 'A2A_AGENT_REGISTRY_RESYNC_MS' }),
  table: dynamoTableName
    .optional()
    .describe("DynamoDB table of the registry (may be the store's), created when missing. Unset: no DynamoDB registry.")
    .register(settingMeta, { env: 'A2A_AGENT_REGISTRY_TABLE' }),
  endpoint: absoluteUrl
    .optional()
    .describe("DynamoDB endpoint URL of the registry table. Unset: the region's.")
    .register(settingMeta, { env: 'A2A_AGENT_REGISTRY_ENDPOINT' }),
  region: awsRegion
    .optional()
    .describe("AWS region of the registry table. Unset: the SDK's (AWS_REGION, shared config).")
    .register(settingMeta, { env: 'A2A_AGENT_REGISTRY_REGION' }),
  pollMs: intIn(10, 24 * 60 * 60 * 1000)
    .default(5000)
    .describe('DynamoDB: how often the registry table is re-read (no notifications).')
    .register(settingMeta, { env: 'A2A_AGENT_REGISTRY_POLL_MS' }),
  moduleDirs: z
    .array(nonEmpty, { error: 'an array of directories' })
    .default(() => [])
    .describe('Directories a row of handler module may load its file from (relative: to the config file). Default none: module rows are refused.')
    .register(settingMeta, { env: 'A2A_AGENT_REGISTRY_MODULE_DIRS' }),
  modulePackages: z
    .array(nonEmpty, { error: 'an array of package names' })
    .default(() => [])
    .describe('Package names (exactly as a row writes them) a row of handler module may load. Default none.')
    .register(settingMeta, { env: 'A2A_AGENT_REGISTRY_MODULE_PACKAGES' }),
  loadTimeoutMs: intIn(1, 10 * 60 * 1000)
    .default(10_000)
    .describe('Deadline of building one row (module import, factory); past it the agent answers UNAVAILABLE.')
    .register(settingMeta, { env: 'A2A_AGENT_REGISTRY_LOAD_TIMEOUT_MS' }),
  maxCardBytes: intIn(1024, 16 * 1024 * 1024)
    .default(64 * 1024)
    .describe('Largest card of a row, in bytes of its JSON text; a larger one is not read and its agent answers UNAVAILABLE.')
    .register(settingMeta, { env: 'A2A_AGENT_REGISTRY_MAX_CARD_BYTES' }),
});
