/**
 * `@a2a-polyglot/stores/sqlite`: the embedded durable store — tasks and push configs in one
 * SQLite file, for one instance that keeps its tasks across restarts. Needs `better-sqlite3`
 * (major version 12).
 *
 * @example
 * const db = openSqlite('a2a.db');
 * migrateSqlite(db);
 * new RequestHandler({ card, executor, taskStore: new SqliteTaskStore(db), pushConfigStore: new SqlitePushConfigStore(db), cluster: { instanceId: 'main' } });
 */
export * from './sqlite/database.js';
export * from './sqlite/migrations.js';
export * from './sqlite/task-store.js';
export * from './sqlite/push-config-store.js';
export * from './sqlite/idempotency-store.js';
