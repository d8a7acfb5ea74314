/**
 * `@a2a-polyglot/stores/postgres`: tasks, push configs, leases and the run queue in PostgreSQL, shared by
 * every instance of a service. Needs the `pg` package.
 *
 * @example
 * const pool = createPostgresPool({ url: process.env.A2A_POSTGRES_URL! });
 * await migratePostgres(pool);
 * new RequestHandler({ card, executor, taskStore: new PostgresTaskStore(pool), pushConfigStore: new PostgresPushConfigStore(pool), cluster: { instanceId } });
 */
export * from './postgres/pool.js';
export * from './postgres/errors.js';
export * from './postgres/migrations.js';
export * from './postgres/task-store.js';
export * from './postgres/push-config-store.js';
export * from './postgres/idempotency-store.js';
export * from './postgres/agent-registry.js';
export * from './postgres/run-queue.js';
