import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  GetItemCommand,
  PutItemCommand,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { latestVersion, pendingMigrations, type Migration, type MigrationResult } from '../migration.js';
import { checkTableName } from './client.js';
import { isConditionFailed } from './errors.js';
import { ATTR, INDEX, SCHEMA_KEY } from './schema.js';

/** The table's schema steps (DynamoDB has no SQL: `statements` name what each step creates). */
export const DYNAMO_MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'tasks and push configs table, ListTasks and lease GSIs, TTL on expires_at', statements: ['CreateTable', 'UpdateTimeToLive'] },
];

/** What a DynamoDB migration run did, plus whether the endpoint enforces TTL. */
export interface DynamoMigrationResult extends MigrationResult {
  /** False when the endpoint does not implement TTL (dynalite and some emulators): finished tasks then stay. */
  readonly ttlEnabled: boolean;
}

/** How long {@link migrateDynamo} waits for a table being created (by it or by another instance). */
const ACTIVE_TIMEOUT_MS = 5 * 60_000;

/** A GSI declaration whose name is always set (the SDK type leaves it optional). */
type NamedIndex = GlobalSecondaryIndex & { readonly IndexName: string };

const listIndex = (name: string, partition: string): NamedIndex => ({
  IndexName: name,
  KeySchema: [
    { AttributeName: partition, KeyType: 'HASH' },
    { AttributeName: ATTR.listSort, KeyType: 'RANGE' },
  ],
  Projection: { ProjectionType: 'ALL' },
});

/** The indexes, as CreateTable declares them (on-demand billing: no throughput to size). */
const INDEXES: NamedIndex[] = [
  listIndex(INDEX.tenant, ATTR.tenantKey),
  listIndex(INDEX.context, ATTR.contextKey),
  listIndex(INDEX.state, ATTR.stateKey),
  {
    IndexName: INDEX.lease,
    KeySchema: [
      { AttributeName: ATTR.leasePartition, KeyType: 'HASH' },
      { AttributeName: ATTR.leaseExpiresAt, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [ATTR.leaseOwner] },
  },
];

/**
 * Brings the DynamoDB table up to date, like `migratePostgres` does a schema: creates the
 * table with its GSIs when missing (on-demand billing), waits until it is ACTIVE, turns TTL on
 * (`expires_at`), and records the schema version in the table. Idempotent and safe when
 * several instances start together (a concurrent CreateTable is waited for, not repeated).
 * Refuses a table whose recorded version is newer than this build, or that lacks the indexes
 * (a table made by something else: use another table name). Errors are the SDK's own (not
 * mapped to A2A errors): this runs at startup, where the operator needs the real cause
 * ("Region is missing", ECONNREFUSED, AccessDenied).
 */
export async function migrateDynamo(client: DynamoDBClient, options: { readonly table: string }): Promise<DynamoMigrationResult> {
  const table = checkTableName(options.table);
  let description = await describe(client, table);
  if (!description) {
    try {
      await client.send(
        new CreateTableCommand({
          TableName: table,
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [
            ...[ATTR.pk, ATTR.sk, ATTR.tenantKey, ATTR.contextKey, ATTR.stateKey, ATTR.listSort, ATTR.leasePartition].map((name) => ({
              AttributeName: name,
              AttributeType: 'S' as const,
            })),
            { AttributeName: ATTR.leaseExpiresAt, AttributeType: 'N' },
          ],
          KeySchema: [
            { AttributeName: ATTR.pk, KeyType: 'HASH' },
            { AttributeName: ATTR.sk, KeyType: 'RANGE' },
          ],
          GlobalSecondaryIndexes: INDEXES,
        }),
      );
    } catch (error) {
      // Another instance created it first: wait for that one instead.
      if ((error as { name?: unknown }).name !== 'ResourceInUseException') throw error;
    }
  }
  description = await waitActive(client, table);
  const present = new Set((description.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
  const missing = INDEXES.map((i) => i.IndexName).filter((name) => !present.has(name));
  if (missing.length > 0)
    throw new Error(`DynamoDB table ${table} exists without the index(es) ${missing.join(', ')}: it was not made by A2A Polyglot; use another table name`);

  const where = `DynamoDB table ${table}`;
  const stored = await client.send(new GetItemCommand({ TableName: table, Key: schemaKey(), ConsistentRead: true }));
  const from = Number(stored.Item?.version?.N ?? 0);
  const pending = pendingMigrations(DYNAMO_MIGRATIONS, from, where);
  const ttlEnabled = await enableTtl(client, table);
  const to = latestVersion(DYNAMO_MIGRATIONS);
  const last = pending[pending.length - 1];
  if (last) {
    try {
      await client.send(
        new PutItemCommand({
          TableName: table,
          Item: { ...schemaKey(), version: { N: String(to) }, name: { S: last.name }, applied_at: { S: new Date().toISOString() } },
          ConditionExpression: 'attribute_not_exists(#v) OR #v < :to',
          ExpressionAttributeNames: { '#v': 'version' },
          ExpressionAttributeValues: { ':to': { N: String(to) } },
        }),
      );
    } catch (error) {
      // A concurrent run recorded it (or a newer one): both are fine for this build.
      if (!isConditionFailed(error)) throw error;
    }
  }
  return { from, to, ttlEnabled };
}

function schemaKey() {
  return { [ATTR.pk]: { S: SCHEMA_KEY.pk }, [ATTR.sk]: { S: SCHEMA_KEY.sk } };
}

async function describe(client: DynamoDBClient, table: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: table }))).Table;
  } catch (error) {
    if ((error as { name?: unknown }).name === 'ResourceNotFoundException') return undefined;
    throw error;
  }
}

/** Polls DescribeTable until the table and its indexes are ACTIVE. */
async function waitActive(client: DynamoDBClient, table: string): Promise<TableDescription> {
  const deadline = Date.now() + ACTIVE_TIMEOUT_MS;
  for (let delay = 50; ; delay = Math.min(delay * 2, 2000)) {
    const description = await describe(client, table);
    const indexesActive = (description?.GlobalSecondaryIndexes ?? []).every((i) => i.IndexStatus === 'ACTIVE');
    if (description?.TableStatus === 'ACTIVE' && indexesActive) return description;
    if (Date.now() > deadline)
      throw new Error(`DynamoDB table ${table} is not ACTIVE after ${ACTIVE_TIMEOUT_MS / 1000} s (status ${description?.TableStatus ?? 'missing'})`);
    await new Promise((r) => setTimeout(r, delay));
  }
}

/** Turns TTL on `expires_at` on; false when the endpoint has no TTL API (emulators). */
async function enableTtl(client: DynamoDBClient, table: string): Promise<boolean> {
  try {
    const status = (await client.send(new DescribeTimeToLiveCommand({ TableName: table }))).TimeToLiveDescription;
    if ((status?.TimeToLiveStatus === 'ENABLED' || status?.TimeToLiveStatus === 'ENABLING') && status.AttributeName === ATTR.ttl) return true;
    await client.send(new UpdateTimeToLiveCommand({ TableName: table, TimeToLiveSpecification: { AttributeName: ATTR.ttl, Enabled: true } }));
    return true;
  } catch (error) {
    const name = String((error as { name?: unknown }).name);
    if (name === 'UnknownOperationException') return false;
    // Two instances enabling it at once: the other one's call is in progress.
    if (name === 'ValidationException' && /already enabled|in progress/i.test((error as Error).message)) return true;
    throw error;
  }
}
