/** The durability sections: `store` (tasks, push configs), `eventLog` (streams, resumes), `lease`, and the `agentRegistry` table. */
import { DYNAMO_TABLE_NAME, DYNAMO_TABLE_NAME_RULE } from '@a2a-polyglot/stores';
import { absoluteUrl, connectionUrl, intIn, matching, nonEmpty, nonNegativeMs, oneOf, section } from './values.js';
import { z } from 'zod';

/** `store`: where tasks and push configs live. */
export const storeSchema = section({
  kind: oneOf(['memory', 'sqlite', 'postgres', 'dynamodb'])
    .optional()
    .describe(
      'Where tasks and push configs live: memory, sqlite, postgres or dynamodb (A2A_STORE). Unset: postgres with url, sqlite with path, dynamodb with table, else memory.',
    ),
  path: nonEmpty.optional().describe('SQLite file (relative to the config file).'),
  url: connectionUrl('postgres:', 'postgresql:').optional().describe('PostgreSQL URL.'),
  schema: matching(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'a schema name (letters, digits, _)').optional(),
  maxConnections: intIn(1, 1000).optional(),
  table: matching(DYNAMO_TABLE_NAME, `a DynamoDB table name (${DYNAMO_TABLE_NAME_RULE})`)
    .optional()
    .describe('DynamoDB table of the tasks, created when missing (A2A_DYNAMODB_TABLE).'),
  endpoint: absoluteUrl.optional().describe("DynamoDB endpoint URL: DynamoDB Local, an emulator, a VPC endpoint (A2A_DYNAMODB_ENDPOINT). Unset: the region's."),
  region: matching(/^[a-z0-9-]{1,64}$/, 'an AWS region such as "eu-west-1"')
    .optional()
    .describe("AWS region of the table (A2A_DYNAMODB_REGION). Unset: the SDK's (AWS_REGION, shared config)."),
  retentionMs: intIn(0, 10 * 365 * 24 * 60 * 60 * 1000).optional(),
  memoryMaxBytes: intIn(1024 * 1024, 1024 ** 4)
    .optional()
    .describe('In-memory store: most estimated bytes of tasks held (A2A_MEMORY_STORE_MAX_BYTES). Default 256 MiB.'),
  memoryInterruptedIdleMs: intIn(0, 365 * 24 * 60 * 60 * 1000)
    .optional()
    .describe(
      'In-memory store: an input-required / auth-required task idle this long is dropped; 0 never (A2A_MEMORY_STORE_INTERRUPTED_IDLE_MS). Default 1 h.',
    ),
});

/** `eventLog`: where task events are logged for streams and resumes. */
export const eventLogSchema = section({
  kind: oneOf(['memory', 'redis']).optional().describe('Unset: redis with url, else memory.'),
  url: connectionUrl('redis:', 'rediss:').optional(),
  prefix: nonEmpty.optional(),
  retentionMs: nonNegativeMs.optional(),
  maxEventsPerTask: intIn(1, 1_000_000).optional(),
});

/** `lease`: leases of running tasks (durable stores only). */
export const leaseSchema = section({
  ttlMs: intIn(100, 24 * 60 * 60 * 1000).optional(),
  sweepIntervalMs: intIn(10, 24 * 60 * 60 * 1000).optional(),
});

/** `agentRegistry`: agents kept in a PostgreSQL table, changes applied without a restart (LISTEN/NOTIFY). */
export const agentRegistrySchema = section({
  kind: oneOf(['postgres']).optional().describe('Only postgres; implied by url.'),
  url: connectionUrl('postgres:', 'postgresql:').optional().describe('PostgreSQL URL of the registry (A2A_AGENT_REGISTRY_URL). Unset: no registry.'),
  schema: matching(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'a schema name (letters, digits, _)')
    .optional()
    .describe('Schema of the a2a_agents table. Default public.'),
  resyncMs: nonNegativeMs.optional().describe('Full re-read interval, the fallback to notifications; 0 turns it off. Default 30000.'),
  moduleDirs: z
    .array(nonEmpty, { error: 'an array of directories' })
    .optional()
    .describe(
      'Directories a row of handler module may load its file from (relative: to the config file), A2A_AGENT_REGISTRY_MODULE_DIRS. Default none: module rows are refused.',
    ),
  modulePackages: z
    .array(nonEmpty, { error: 'an array of package names' })
    .optional()
    .describe('Package names (exactly as a row writes them) a row of handler module may load, A2A_AGENT_REGISTRY_MODULE_PACKAGES. Default none.'),
  loadTimeoutMs: intIn(1, 10 * 60 * 1000)
    .optional()
    .describe('Deadline of building one row (module import, factory); past it the agent answers UNAVAILABLE. Default 10000.'),
  maxCardBytes: intIn(1024, 16 * 1024 * 1024)
    .optional()
    .describe('Largest card of a row, in bytes of its JSON text; a larger one is not read and its agent answers UNAVAILABLE. Default 65536.'),
});
