/**
 * What only the DynamoDB store has (the shared contract runs in task-stores.test.ts): the
 * table migration, the TTL attribute of finished tasks, and the mapping of an unreachable
 * endpoint to Unavailable. Against dynalite on 127.0.0.1.
 */
import { A2AErrorCode } from '@a2a-polyglot/core';
import { TaskState } from '@a2a-polyglot/model';
import { createDynamoClient, DynamoTaskStore, migrateDynamo } from '@a2a-polyglot/stores/dynamodb';
import { CreateTableCommand, DescribeTableCommand, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { createServer } from 'node:net';
import { useDynalite } from './dynalite.js';
import { stored } from './fixtures.js';
import { uniqueName } from './services.js';

const local = useDynalite();

describe('migrateDynamo', () => {
  it('creates the table with its indexes once, then finds it up to date', async () => {
    const table = uniqueName('a2a');
    // dynalite has no TTL API: the run says so instead of failing.
    expect(await migrateDynamo(local().client, { table })).toEqual({ from: 0, to: 1, ttlEnabled: false });
    expect(await migrateDynamo(local().client, { table })).toEqual({ from: 1, to: 1, ttlEnabled: false });
    const { Table } = await local().client.send(new DescribeTableCommand({ TableName: table }));
    expect(Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName).sort()).toEqual(['by_context', 'by_lease', 'by_state', 'by_tenant']);
    expect(Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
  });

  it('lets instances that start together migrate at once', async () => {
    const table = uniqueName('a2a');
    const results = await Promise.all([1, 2, 3].map(() => migrateDynamo(local().client, { table })));
    expect(results.every((r) => r.to === 1)).toBe(true);
  });

  it('refuses a table with a newer schema, or one it did not make', async () => {
    const table = uniqueName('a2a');
    await migrateDynamo(local().client, { table });
    await local().client.send(new PutItemCommand({ TableName: table, Item: { pk: { S: '["a2a-schema"]' }, sk: { S: 'schema' }, version: { N: '99' } } }));
    await expect(migrateDynamo(local().client, { table })).rejects.toThrow(/schema version 99, newer than this build knows/);

    const foreign = uniqueName('other');
    await local().client.send(
      new CreateTableCommand({
        TableName: foreign,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      }),
    );
    await expect(migrateDynamo(local().client, { table: foreign })).rejects.toThrow(/without the index\(es\) by_tenant, by_context, by_state, by_lease/);
    await expect(migrateDynamo(local().client, { table: 'x' })).rejects.toThrow(/Invalid DynamoDB table name/);
  });
});

describe('DynamoTaskStore TTL', () => {
  it('sets expires_at on finished tasks only, retention after the save', async () => {
    const table = uniqueName('a2a');
    await migrateDynamo(local().client, { table });
    const retentionMs = 7 * 24 * 3600_000;
    const store = new DynamoTaskStore(local().client, { table, retentionMs });
    const expiresAt = async (id: string) => {
      const { Item } = await local().client.send(new GetItemCommand({ TableName: table, Key: { pk: { S: JSON.stringify(['', id]) }, sk: { S: 'task' } } }));
      return Item?.expires_at?.N === undefined ? undefined : Number(Item.expires_at.N);
    };
    await store.save(stored('running', '2026-01-01T00:00:00.000Z', { state: TaskState.TASK_STATE_WORKING }));
    await store.save(stored('waiting', '2026-01-01T00:00:00.000Z', { state: TaskState.TASK_STATE_INPUT_REQUIRED }));
    const before = Date.now();
    await store.save(stored('done', '2026-01-01T00:00:00.000Z', { state: TaskState.TASK_STATE_COMPLETED }));
    await store.save(stored('failed', '2026-01-01T00:00:00.000Z', { state: TaskState.TASK_STATE_FAILED }));
    expect(await expiresAt('running')).toBeUndefined();
    expect(await expiresAt('waiting')).toBeUndefined();
    for (const id of ['done', 'failed']) {
      const at = (await expiresAt(id))!;
      expect(at).toBeGreaterThanOrEqual(Math.floor((before + retentionMs) / 1000));
      expect(at).toBeLessThanOrEqual(Math.ceil((Date.now() + retentionMs) / 1000));
    }
    // Without a retention, finished tasks are kept.
    await new DynamoTaskStore(local().client, { table }).save(stored('kept', '2026-01-01T00:00:00.000Z'));
    expect(await expiresAt('kept')).toBeUndefined();
  });
});

describe('DynamoDB unreachable', () => {
  it('fails requests with Unavailable, naming the store but not the endpoint', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const client = createDynamoClient({ endpoint: `http://127.0.0.1:${port}`, region: 'local', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
    try {
      const failure = new DynamoTaskStore(client, { table: 'a2a-tasks' }).get('', 't1');
      await expect(failure).rejects.toMatchObject({ code: A2AErrorCode.Unavailable, message: 'The task store (DynamoDB) is unavailable; retry later' });
      // At startup the migration reports the real cause instead.
      await expect(migrateDynamo(client, { table: 'a2a-tasks' })).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      client.destroy();
    }
  });
});
