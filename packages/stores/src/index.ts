/**
 * @a2a-polyglot/stores — durable backends for the A2A core, one subpath per driver so an
 * application installs only the driver it uses:
 *
 * - `@a2a-polyglot/stores/sqlite`: the embedded durable store (one process, one file;
 *   needs `better-sqlite3` 12).
 * - `@a2a-polyglot/stores/postgres`: tasks, push configs and leases shared by several
 *   instances (needs `pg`).
 * - `@a2a-polyglot/stores/dynamodb`: the same in one DynamoDB table (needs
 *   `@aws-sdk/client-dynamodb` v3).
 * - `@a2a-polyglot/stores/redis`: the cross-instance event log on Redis Streams and the
 *   cancel signals on Redis pub/sub (needs `ioredis`).
 *
 * This entry point loads no driver: it holds what they share.
 */
export * from './agent-registry.js';
export * from './codec.js';
export * from './errors.js';
export * from './list-query.js';
export * from './migration.js';
export * from './push-secrets.js';
export * from './dynamodb/table-name.js';
export * from './redis/log-bounds.js';
