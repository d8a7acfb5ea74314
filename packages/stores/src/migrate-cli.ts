#!/usr/bin/env node
/**
 * `a2a-migrate`: brings a store's schema up to date, the same migrations the executor runs at
 * startup — for deployments that migrate as a separate step (before a rolling upgrade, or
 * with a database user that the service itself does not get).
 *
 *   a2a-migrate --postgres postgres://user@host/db [--schema name]
 *   a2a-migrate --sqlite ./a2a.db
 *
 * Without flags it reads the executor's variables: A2A_STORE (sqlite|postgres),
 * A2A_SQLITE_PATH, A2A_POSTGRES_URL, A2A_POSTGRES_SCHEMA. Exit codes: 0 done, 1 the database
 * refused or could not be reached, 2 usage error.
 */
import { redactUrl } from './errors.js';

const USAGE = `Usage: a2a-migrate --postgres <url> [--schema <name>] | --sqlite <file>
Without flags: A2A_STORE=postgres|sqlite with A2A_POSTGRES_URL [A2A_POSTGRES_SCHEMA] or A2A_SQLITE_PATH.`;

type Target = { kind: 'postgres'; url: string; schema: string } | { kind: 'sqlite'; path: string };

function parse(argv: readonly string[], env: NodeJS.ProcessEnv): Target | 'help' {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return 'help';
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (!['--postgres', '--sqlite', '--schema'].includes(name)) throw new UsageError(`Unknown argument ${JSON.stringify(arg)}`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (!value) throw new UsageError(`Missing value for ${name}`);
    flags.set(name, value);
  }
  const schema = flags.get('--schema') ?? (env.A2A_POSTGRES_SCHEMA || 'public');
  if (flags.has('--postgres') && flags.has('--sqlite')) throw new UsageError('Give either --postgres or --sqlite, not both');
  if (flags.has('--postgres')) return { kind: 'postgres', url: flags.get('--postgres')!, schema };
  if (flags.has('--sqlite')) return { kind: 'sqlite', path: flags.get('--sqlite')! };
  if (env.A2A_STORE === 'postgres' && env.A2A_POSTGRES_URL) return { kind: 'postgres', url: env.A2A_POSTGRES_URL, schema };
  if (env.A2A_STORE === 'sqlite' && env.A2A_SQLITE_PATH) return { kind: 'sqlite', path: env.A2A_SQLITE_PATH };
  throw new UsageError('Nothing to migrate: give --postgres or --sqlite (or set A2A_STORE with its URL or path)');
}

class UsageError extends Error {}

async function main(): Promise<void> {
  let target: Target | 'help';
  try {
    target = parse(process.argv.slice(2), process.env);
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
      // Loaded here so the SQLite path does not need `pg` installed, and the other way round.
      const { createPostgresPool, migratePostgres } = await import('./postgres.js');
      const pool = createPostgresPool({ url: target.url, maxConnections: 1 });
      try {
        report(`PostgreSQL ${redactUrl(target.url)} schema ${target.schema}`, await migratePostgres(pool, { schema: target.schema }));
      } finally {
        await pool.end();
      }
    } else {
      const { openSqlite, migrateSqlite } = await import('./sqlite.js');
      const db = openSqlite(target.path);
      try {
        report(`SQLite ${target.path}`, migrateSqlite(db));
      } finally {
        db.close();
      }
    }
  } catch (error) {
    console.error(`Migration failed: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}

function report(where: string, result: { from: number; to: number }): void {
  console.log(result.from === result.to ? `${where}: already at schema version ${result.to}` : `${where}: migrated from schema version ${result.from} to ${result.to}`);
}

void main();
