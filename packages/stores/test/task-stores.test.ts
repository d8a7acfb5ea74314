import { InMemoryPushConfigStore, InMemoryTaskStore } from '@a2a-polyglot/core';
import { DynamoPushConfigStore, DynamoTaskStore, migrateDynamo } from '@a2a-polyglot/stores/dynamodb';
import { migratePostgres, PostgresPushConfigStore, PostgresTaskStore } from '@a2a-polyglot/stores/postgres';
import { migrateSqlite, openSqlite, SqlitePushConfigStore, SqliteTaskStore } from '@a2a-polyglot/stores/sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { useDynalite } from './dynalite.js';
import { describeWithPostgres, freshSchema, uniqueName } from './services.js';
import { storeContract } from './task-store-contract.js';

describe('in-memory store (the reference)', () => {
  storeContract(async () => ({ tasks: new InMemoryTaskStore(), pushConfigs: new InMemoryPushConfigStore(), close: async () => undefined }));
});

describe('SQLite store', () => {
  storeContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-sqlite-'));
    const db = openSqlite(join(dir, 'a2a.db'));
    migrateSqlite(db);
    return {
      tasks: new SqliteTaskStore(db),
      pushConfigs: new SqlitePushConfigStore(db),
      close: async () => {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

describeWithPostgres('PostgreSQL store', () => {
  storeContract(async () => {
    const { schema, pool, drop } = await freshSchema();
    await migratePostgres(pool, { schema });
    return { tasks: new PostgresTaskStore(pool, { schema }), pushConfigs: new PostgresPushConfigStore(pool, { schema }), close: drop };
  });
});

describe('DynamoDB store (dynalite)', () => {
  const local = useDynalite();
  storeContract(async () => {
    const table = uniqueName('a2a');
    const dynamo = local();
    await migrateDynamo(dynamo.client, { table });
    return {
      tasks: new DynamoTaskStore(dynamo.client, { table }),
      pushConfigs: new DynamoPushConfigStore(dynamo.client, { table }),
      close: async () => void (await dynamo.client.send(new DeleteTableCommand({ TableName: table }))),
    };
  });
});
