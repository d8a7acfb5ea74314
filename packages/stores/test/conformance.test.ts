/**
 * The conformance scenarios on every store: each scenario runs (in-process binding) on the
 * in-memory reference, on SQLite and on DynamoDB (dynalite) in durable mode, and on
 * PostgreSQL + Redis in durable mode,
 * each durable store remembering sends in its own table (idempotent sends),
 * and every run must both pass and produce the same normalized outcome as the reference.
 */
import { LocalTaskSignals } from '@a2a-polyglot/core';
import { crossBindingDiffs, inProcessBinding, loadScenarios, runScenario, type ScenarioBackend, type ScenarioRun } from '@a2a-polyglot/conformance';
import { createPostgresPool, migratePostgres, PostgresIdempotencyStore, PostgresPushConfigStore, PostgresTaskStore } from '@a2a-polyglot/stores/postgres';
import { DynamoIdempotencyStore, DynamoPushConfigStore, DynamoTaskStore, migrateDynamo } from '@a2a-polyglot/stores/dynamodb';
import { RedisEventLog, RedisTaskSignals, type RedisConnections } from '@a2a-polyglot/stores/redis';
import { migrateSqlite, openSqlite, SqliteIdempotencyStore, SqlitePushConfigStore, SqliteTaskStore } from '@a2a-polyglot/stores/sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pool } from 'pg';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { useDynalite } from './dynalite.js';
import { deleteKeys, describeWithPostgresAndRedis, POSTGRES_URL, redisConnections, uniqueName } from './services.js';

const scenarios = loadScenarios();
const runs: ScenarioRun[] = [];

function sqliteBackend(): Promise<ScenarioBackend> {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-conformance-'));
  const db = openSqlite(join(dir, 'a2a.db'));
  migrateSqlite(db);
  return Promise.resolve({
    handlerOptions: {
      taskStore: new SqliteTaskStore(db),
      pushConfigStore: new SqlitePushConfigStore(db),
      idempotencyStore: new SqliteIdempotencyStore(db),
      cluster: { instanceId: 'sqlite-1', signals: new LocalTaskSignals() },
    },
    close: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

const local = useDynalite();

/** A fresh table per scenario on the suite's dynalite, so ListTasks sees only the scenario's tasks. */
async function dynamoBackend(): Promise<ScenarioBackend> {
  const table = uniqueName('a2a_conf');
  const dynamo = local();
  await migrateDynamo(dynamo.client, { table });
  return {
    handlerOptions: {
      taskStore: new DynamoTaskStore(dynamo.client, { table }),
      pushConfigStore: new DynamoPushConfigStore(dynamo.client, { table }),
      idempotencyStore: new DynamoIdempotencyStore(dynamo.client, { table }),
      cluster: { instanceId: 'dynamo-1', signals: new LocalTaskSignals() },
    },
    close: async () => void (await dynamo.client.send(new DeleteTableCommand({ TableName: table }))),
  };
}

let pool: Pool | undefined;
let redis: RedisConnections | undefined;

/** A fresh schema and key prefix per scenario, so ListTasks sees only the scenario's tasks. */
async function postgresRedisBackend(): Promise<ScenarioBackend> {
  const schema = uniqueName('a2a_conf');
  const prefix = schema;
  await migratePostgres(pool!, { schema });
  return {
    handlerOptions: {
      taskStore: new PostgresTaskStore(pool!, { schema }),
      pushConfigStore: new PostgresPushConfigStore(pool!, { schema }),
      idempotencyStore: new PostgresIdempotencyStore(pool!, { schema }),
      eventLog: new RedisEventLog(redis!, { prefix }),
      cluster: { instanceId: 'pg-1', signals: new RedisTaskSignals(redis!, { prefix }) },
    },
    close: async () => {
      await pool!.query(`DROP SCHEMA "${schema}" CASCADE`);
      await deleteKeys(redis!, prefix);
    },
  };
}

/** One test per scenario on `backend`, each kept in `runs` for the cross-store comparison. */
function scenarioTests(name: string, backend: (() => Promise<ScenarioBackend>) | undefined): void {
  test.each(scenarios.map((scenario) => [`${name}/${scenario.name}`, scenario] as const))('%s', async (_title, scenario) => {
    const run = await runScenario(scenario, inProcessBinding, { backend });
    runs.push({ ...run, binding: name });
    expect(run.failures).toEqual([]);
  });
}

describe('memory', () => scenarioTests('memory', undefined));
describe('sqlite', () => scenarioTests('sqlite', sqliteBackend));
describe('dynamodb', () => scenarioTests('dynamodb', dynamoBackend));
describeWithPostgresAndRedis('postgres+redis', () => {
  beforeAll(async () => {
    pool = createPostgresPool({ url: POSTGRES_URL!, maxConnections: 4 });
    redis = await redisConnections();
  });
  afterAll(async () => {
    await pool?.end();
    await redis?.close();
  });
  scenarioTests('postgres+redis', postgresRedisBackend);
});

test('every store produces the same normalized outcome as the in-memory store', () => {
  expect(crossBindingDiffs(runs)).toEqual([]);
});
