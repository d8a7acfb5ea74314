import { latestVersion, pendingMigrations, type Migration, type MigrationResult } from '../migration.js';
import type { SqliteDatabase } from './database.js';

/**
 * The SQLite schema, as ordered steps. SQLite compares text byte by byte (BINARY collation),
 * which for the ASCII ids and RFC 3339 timestamps the core writes is the in-memory store's
 * string order. Lease expiry is epoch milliseconds: one file means one machine and one clock.
 */
export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tasks, push configs, leases',
    statements: [
      `CREATE TABLE a2a_tasks (
        tenant TEXT NOT NULL,
        id TEXT NOT NULL,
        context_id TEXT NOT NULL,
        owner TEXT,
        state INTEGER NOT NULL,
        status_ts TEXT NOT NULL,
        version INTEGER NOT NULL,
        task TEXT NOT NULL,
        lease_owner TEXT,
        lease_expires_at INTEGER,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (tenant, id)
      )`,
      'CREATE INDEX a2a_tasks_newest ON a2a_tasks (tenant, status_ts DESC, id DESC)',
      'CREATE INDEX a2a_tasks_context_newest ON a2a_tasks (tenant, context_id, status_ts DESC, id DESC)',
      'CREATE INDEX a2a_tasks_leased ON a2a_tasks (lease_expires_at) WHERE lease_owner IS NOT NULL',
      `CREATE TABLE a2a_push_configs (
        tenant TEXT NOT NULL,
        task_id TEXT NOT NULL,
        id TEXT NOT NULL,
        position INTEGER NOT NULL,
        config TEXT NOT NULL,
        PRIMARY KEY (tenant, task_id, id)
      )`,
      'CREATE INDEX a2a_push_configs_order ON a2a_push_configs (tenant, task_id, position)',
    ],
  },
  {
    version: 2,
    name: 'idempotent sends',
    statements: [
      `CREATE TABLE a2a_sends (
        principal TEXT NOT NULL,
        tenant TEXT NOT NULL,
        message_id TEXT NOT NULL,
        body_hash TEXT NOT NULL,
        task_id TEXT,
        reply TEXT,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (principal, tenant, message_id)
      )`,
      'CREATE INDEX a2a_sends_expiry ON a2a_sends (expires_at)',
    ],
  },
];

/**
 * Brings the file's schema up to date in one `BEGIN IMMEDIATE` transaction (a second process
 * migrating at the same time waits, then finds nothing to do). Refuses a file whose schema is
 * newer than this build. Safe to run at every startup.
 */
export function migrateSqlite(db: SqliteDatabase): MigrationResult {
  const migrate = db.transaction((): MigrationResult => {
    db.exec('CREATE TABLE IF NOT EXISTS a2a_schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    const from = (db.prepare('SELECT max(version) AS version FROM a2a_schema_migrations').get() as { version: number | null }).version ?? 0;
    for (const migration of pendingMigrations(SQLITE_MIGRATIONS, from, `SQLite database ${db.name}`)) {
      for (const statement of migration.statements) db.exec(statement);
      db.prepare('INSERT INTO a2a_schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    }
    return { from, to: latestVersion(SQLITE_MIGRATIONS) };
  });
  return migrate.immediate();
}
