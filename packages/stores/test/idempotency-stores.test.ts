import { InMemoryIdempotencyStore, type IdempotencyStore, type SendKey } from '@a2a-polyglot/core';
import { Role, type Message } from '@a2a-polyglot/model';
import { DynamoIdempotencyStore, migrateDynamo } from '@a2a-polyglot/stores/dynamodb';
import { createPostgresPool, migratePostgres, PostgresIdempotencyStore } from '@a2a-polyglot/stores/postgres';
import { migrateSqlite, openSqlite, SqliteIdempotencyStore } from '@a2a-polyglot/stores/sqlite';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useDynalite } from './dynalite.js';
import { describeWithPostgres, freshSchema, POSTGRES_URL, uniqueName } from './services.js';

/** Two handles on one store (two instances); `close` removes it. */
interface Stores {
  readonly one: IdempotencyStore;
  readonly two: IdempotencyStore;
  close(): Promise<void>;
}

const key = (messageId: string, principal = 'key:alice', tenant = ''): SendKey => ({ principal, tenant, messageId });
const reply: Message = {
  messageId: 'r-1',
  contextId: '',
  taskId: '',
  role: Role.ROLE_AGENT,
  parts: [{ content: { $case: 'text', value: 'hello' }, metadata: undefined, filename: '', mediaType: '' }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
};
const T0 = 1_700_000_000_000;

/** What every idempotency store must do; durable ones with two handles on one table. */
function idempotencyContract(open: () => Promise<Stores>): void {
  let stores: Stores;
  beforeEach(async () => {
    stores = await open();
  });
  afterEach(() => stores.close());

  it('claims a new key once; the next claim sees its hash, then its recorded task', async () => {
    const { one, two } = stores;
    expect(await one.claim(key('m'), 'h1', T0, T0 + 60_000)).toEqual({ kind: 'new' });
    expect(await two.claim(key('m'), 'h1', T0 + 1, T0 + 60_001)).toEqual({ kind: 'existing', fingerprint: 'h1', outcome: undefined });
    await one.record(key('m'), 'h1', { kind: 'task', taskId: 't-1' }, T0 + 86_400_000);
    expect(await two.claim(key('m'), 'h2', T0 + 2, T0 + 60_002)).toEqual({ kind: 'existing', fingerprint: 'h1', outcome: { kind: 'task', taskId: 't-1' } });
    // Another principal or tenant is another key.
    expect(await two.claim(key('m', 'key:bob'), 'h1', T0, T0 + 60_000)).toEqual({ kind: 'new' });
    expect(await two.claim(key('m', '', 'other'), 'h1', T0, T0 + 60_000)).toEqual({ kind: 'new' });
  });

  it('keeps a message reply as it was', async () => {
    const { one, two } = stores;
    await one.claim(key('r'), 'h', T0, T0 + 60_000);
    await one.record(key('r'), 'h', { kind: 'message', message: reply }, T0 + 86_400_000);
    expect(await two.claim(key('r'), 'h', T0 + 1, T0 + 60_001)).toEqual({ kind: 'existing', fingerprint: 'h', outcome: { kind: 'message', message: reply } });
  });

  it('lets a claim take over an expired entry, and a released one', async () => {
    const { one, two } = stores;
    await one.claim(key('e'), 'h', T0, T0 + 60_000);
    await one.record(key('e'), 'h', { kind: 'task', taskId: 't-old' }, T0 + 1000);
    expect(await two.claim(key('e'), 'h2', T0 + 1000, T0 + 61_000)).toEqual({ kind: 'new' });
    // The old owner's late record no longer applies (another body owns the key now).
    await one.record(key('e'), 'h', { kind: 'task', taskId: 't-late' }, T0 + 86_400_000);
    expect(await one.claim(key('e'), 'h2', T0 + 1001, T0 + 61_001)).toEqual({ kind: 'existing', fingerprint: 'h2', outcome: undefined });
    await two.release(key('e'), 'h2');
    expect(await one.claim(key('e'), 'h3', T0 + 1002, T0 + 61_002)).toEqual({ kind: 'new' });
    // A recorded send is never released.
    await one.record(key('e'), 'h3', { kind: 'task', taskId: 't-3' }, T0 + 86_400_000);
    await one.release(key('e'), 'h3');
    expect(await two.claim(key('e'), 'h3', T0 + 1003, T0 + 61_003)).toMatchObject({ kind: 'existing', outcome: { kind: 'task', taskId: 't-3' } });
  });

  it('gives each of 10 keys to exactly one of 100 concurrent claims over both handles', async () => {
    const { one, two } = stores;
    const claims = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? one : two).claim(key(`c-${i % 10}`), 'h', T0, T0 + 60_000)));
    expect(claims.filter((c) => c.kind === 'new')).toHaveLength(10);
  });
}

describe('in-memory idempotency store (the reference)', () => {
  idempotencyContract(async () => {
    const store = new InMemoryIdempotencyStore();
    return { one: store, two: store, close: async () => undefined };
  });
});

describe('SQLite idempotency store', () => {
  idempotencyContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-sends-'));
    const dbs = [openSqlite(join(dir, 'a2a.db')), openSqlite(join(dir, 'a2a.db'))] as const;
    migrateSqlite(dbs[0]);
    return {
      one: new SqliteIdempotencyStore(dbs[0]),
      two: new SqliteIdempotencyStore(dbs[1]),
      close: async () => {
        for (const db of dbs) db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

describeWithPostgres('PostgreSQL idempotency store', () => {
  idempotencyContract(async () => {
    const { schema, pool, drop } = await freshSchema();
    await migratePostgres(pool, { schema });
    const other = createPostgresPool({ url: POSTGRES_URL!, maxConnections: 4 });
    return {
      one: new PostgresIdempotencyStore(pool, { schema }),
      two: new PostgresIdempotencyStore(other, { schema }),
      close: async () => {
        await other.end();
        await drop();
      },
    };
  });
});

describe('DynamoDB idempotency store (dynalite)', () => {
  const local = useDynalite();
  idempotencyContract(async () => {
    const table = uniqueName('a2a');
    const dynamo = local();
    await migrateDynamo(dynamo.client, { table });
    return {
      one: new DynamoIdempotencyStore(dynamo.client, { table }),
      two: new DynamoIdempotencyStore(dynamo.client, { table }),
      close: async () => void (await dynamo.client.send(new DeleteTableCommand({ TableName: table }))),
    };
  });
});
