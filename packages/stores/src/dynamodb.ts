/**
 * `@a2a-polyglot/stores/dynamodb`: tasks, push configs and leases in one DynamoDB table,
 * shared by every instance of a service. Needs `@aws-sdk/client-dynamodb` (v3).
 *
 * @example
 * const client = createDynamoClient({ region: 'eu-west-1' });
 * await migrateDynamo(client, { table: 'a2a-tasks' });
 * new RequestHandler({ card, executor, taskStore: new DynamoTaskStore(client, { table: 'a2a-tasks', retentionMs: 30 * 86_400_000 }), pushConfigStore: new DynamoPushConfigStore(client, { table: 'a2a-tasks' }), cluster: { instanceId } });
 */
export * from './dynamodb/client.js';
export * from './dynamodb/errors.js';
export * from './dynamodb/migrations.js';
export * from './dynamodb/task-store.js';
export * from './dynamodb/push-config-store.js';
export * from './dynamodb/idempotency-store.js';
export * from './dynamodb/agent-registry.js';
