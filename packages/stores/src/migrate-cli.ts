#!/usr/bin/env node
/**
 * `a2a-migrate`: brings a store's schema up to date, the same migrations the executor runs at
 * startup — for deployments that migrate as a separate step (before a rolling upgrade, or
 * with a database user that the service itself does not get).
 *
 *   a2a-migrate --postgres postgres://user@host/db [--schema name]
 *   a2a-migrate --sqlite ./a2a.db
 *   a2a-migrate --dynamodb a2a-tasks [--region eu-west-1] [--endpoint http://127.0.0.1:8000]
 *
 * Without flags it reads the executor's variables: A2A_STORE (sqlite|postgres|dynamodb),
 * A2A_SQLITE_PATH, A2A_POSTGRES_URL, A2A_POSTGRES_SCHEMA, A2A_DYNAMODB_TABLE,
 * A2A_DYNAMODB_REGION, A2A_DYNAMODB_ENDPOINT. DynamoDB credentials come from the AWS SDK's
 * usual chain. With A2A_PUSH_SECRET_KEY set (the executor's `push.secretKey`; a variable, not
 * a flag, so the key stays out of `ps` and shell history), it then encrypts the push config
 * secrets stored before the key was set, as the executor does at startup. Exit codes: 0 done,
 * 1 the database refused or could not be reached, 2 usage error (a malformed key included).
 */
import { redactUrl } from './errors.js';
import { PushSecrets } from './push-secrets.js';

const USAGE = `Usage: a2a-migrate --postgres <url> [--schema <name>] | --sqlite <file> | --dynamodb <table> [--region <region>] [--endpoint <url>]
Without flags: A2A_STORE=postgres|sqlite|dynamodb with A2A_POSTGRES_URL [A2A_POSTGRES_SCHEMA], A2A_SQLITE_PATH
or A2A_DYNAMODB_TABLE [A2A_DYNAMODB_REGION] [A2A_DYNAMODB_ENDPOINT].
With A2A_PUSH_SECRET_KEY: also encrypts the push config secrets stored in plaintext.`;

type Target =
  | { kind: 'postgres'; url: string; schema: string }
  | { kind: 'sqlite'; path: string }
  | { kind: 'dynamodb'; table: string; region?: string; endpoint?: string };

const TARGETS = ['--postgres', '--sqlite', '--dynamodb'];

function parse(argv: readonly string[], env: NodeJS.ProcessEnv): Target | 'help' {
  const flags = new Map<string, string>();
  const args = [...argv];
  for (let arg = args.shift(); arg !== undefined; arg = args.shift()) {
    if (arg === '--help' || arg === '-h') return 'help';
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (![...TARGETS, '--schema', '--region', '--endpoint'].includes(name)) throw new UsageError(`Unknown argument ${JSON.stringify(arg)}`);
    const value = eq > 0 ? arg.slice(eq + 1) : args.shift();
    if (!value) throw new UsageError(`Missing value for ${name}`);
    flags.set(name, value);
  }
  const schema = flags.get('--schema') ?? (env.A2A_POSTGRES_SCHEMA || 'public');
  if (TARGETS.filter((t) => flags.has(t)).length > 1) throw new UsageError('Give one of --postgres, --sqlite or --dynamodb');
  const region = flags.get('--region') ?? (env.A2A_DYNAMODB_REGION || undefined);
  const endpoint = flags.get('--endpoint') ?? (env.A2A_DYNAMODB_ENDPOINT || undefined);
  // Every stored flag value is non-empty (checked above).
  const postgres = flags.get('--postgres');
  if (postgres) return { kind: 'postgres', url: postgres, schema };
  const sqlite = flags.get('--sqlite');
  if (sqlite) return { kind: 'sqlite', path: sqlite };
  const dynamodb = flags.get('--dynamodb');
  if (dynamodb) return { kind: 'dynamodb', table: dynamodb, region, endpoint };
  if (env.A2A_STORE === 'postgres' && env.A2A_POSTGRES_URL) return { kind: 'postgres', url: env.A2A_POSTGRES_URL, schema };
  if (env.A2A_STORE === 'sqlite' && env.A2A_SQLITE_PATH) return { kind: 'sqlite', path: env.A2A_SQLITE_PATH };
  if (env.A2A_STORE === 'dynamodb' && env.A2A_DYNAMODB_TABLE) return { kind: 'dynamodb', table: env.A2A_DYNAMODB_TABLE, region, endpoint };
  throw new UsageError('Nothing to migrate: give --postgres, --sqlite or --dynamodb (or set A2A_STORE with its URL, path or table)');
}

class UsageError extends Error {}

async function main(): Promise<void> {
  let target: Target | 'help';
  let secrets: PushSecrets;
  try {
    target = parse(process.argv.slice(2), process.env);
    secrets = PushSecrets.fromKey(process.env.A2A_PUSH_SECRET_KEY);
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (target === 'help') {
    console.log(USAGE);
    return;
  }
  try {
    if (target.kind === 'postgres') {
      // Loaded here (require: also from sources in tests) so each path needs only its own driver.
      const { createPostgresPool, migratePostgres, PostgresPushConfigStore } = require('./postgres.js') as typeof import('./postgres.js');
      const pool = createPostgresPool({ url: target.url, maxConnections: 1 });
      try {
        report(`PostgreSQL ${redactUrl(target.url)} schema ${target.schema}`, await migratePostgres(pool, { schema: target.schema }));
        await seal(new PostgresPushConfigStore(pool, { schema: target.schema, secrets }), secrets);
      } finally {
        await pool.end();
      }
    } else if (target.kind === 'dynamodb') {
      const { createDynamoClient, DynamoPushConfigStore, migrateDynamo } = require('./dynamodb.js') as typeof import('./dynamodb.js');
      const client = createDynamoClient({ region: target.region, endpoint: target.endpoint });
      try {
        const result = await migrateDynamo(client, { table: target.table });
        report(`DynamoDB table ${target.table}`, result);
        if (!result.ttlEnabled) console.log('Note: this endpoint has no TTL API; finished tasks will not expire');
        await seal(new DynamoPushConfigStore(client, { table: target.table, secrets }), secrets);
      } finally {
        client.destroy();
      }
    } else {
      const { openSqlite, migrateSqlite, SqlitePushConfigStore } = require('./sqlite.js') as typeof import('./sqlite.js');
      const db = openSqlite(target.path);
      try {
        report(`SQLite ${target.path}`, migrateSqlite(db));
        await seal(new SqlitePushConfigStore(db, { secrets }), secrets);
      } finally {
        db.close();
      }
    }
  } catch (error) {
    console.error(`Migration failed: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}

/** Encrypts the plaintext push secrets of the store when a key is given. */
async function seal(store: { sealPlaintextSecrets(): Promise<number> }, secrets: PushSecrets): Promise<void> {
  if (!secrets.enabled) return;
  const sealed = await store.sealPlaintextSecrets();
  console.log(sealed === 0 ? 'Push config secrets: none stored in plaintext' : `Push config secrets: encrypted ${sealed} config(s)`);
}

function report(where: string, result: { from: number; to: number }): void {
  console.log(
    result.from === result.to ? `${where}: already at schema version ${result.to}` : `${where}: migrated from schema version ${result.from} to ${result.to}`,
  );
}

void main();
