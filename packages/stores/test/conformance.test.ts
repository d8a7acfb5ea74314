/**
 * The conformance scenarios on every store: each scenario runs (in-process binding) on the
 * in-memory reference, on SQLite in durable mode, and on PostgreSQL + Redis in durable mode,
 * and every run must both pass and produce the same normalized outcome as the reference.
 */
import { LocalTaskSignals } from '@a2a-polyglot/core';
import { crossBindingDiffs, inProcessBinding, loadScenarios, runScenario, type ScenarioBackend, type ScenarioRun } from '@a2a-polyglot/conformance';
import { createPostgresPool, migratePostgres, PostgresPushConfigStore, PostgresTaskStore } from '@a2a-polyglot/stores/postgres';
import { RedisEventLog, RedisTaskSignals, type RedisConnections } from '@a2a-polyglot/stores/redis';
import { migrateSqlite, openSqlite, SqlitePushConfigStore, SqliteTaskStore } from '@a2a-polyglot/stores/sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pool } from 'pg';
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
      cluster: { instanceId: 'sqlite-1', signals: new LocalTaskSignals() },
    },
    close: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
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
