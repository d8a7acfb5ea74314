import type { PushConfigStore, StoredPushConfig } from '@a2a-polyglot/core';
import { PushSecrets } from '@a2a-polyglot/stores';
import { DynamoPushConfigStore, migrateDynamo } from '@a2a-polyglot/stores/dynamodb';
import { migratePostgres, PostgresPushConfigStore } from '@a2a-polyglot/stores/postgres';
import { migrateSqlite, openSqlite, SqlitePushConfigStore, type SqliteDatabase } from '@a2a-polyglot/stores/sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteTableCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { useDynalite } from './dynalite.js';
import { pushConfig } from './fixtures.js';
import { describeWithPostgres, freshSchema, uniqueName } from './services.js';

/** Push secrets encrypted at rest (`push.secretKey`): the cipher, then every durable store. */

const KEY = Buffer.alloc(32, 7).toString('base64');
const OTHER_KEY = Buffer.alloc(32, 9).toString('hex');

const secretOf = (c: StoredPushConfig | undefined) => [c?.token, c?.authentication?.credentials];

describe('PushSecrets', () => {
  it('takes a 32-byte key as base64 or hex, and names the setting (never the value) for anything else', () => {
    expect(PushSecrets.fromKey(KEY).enabled).toBe(true);
    expect(PushSecrets.fromKey(OTHER_KEY).enabled).toBe(true);
    expect(PushSecrets.fromKey(undefined).enabled).toBe(false);
    expect(PushSecrets.fromKey('').enabled).toBe(false);
    for (const bad of ['short-secret-value', Buffer.alloc(16).toString('base64'), 'z'.repeat(64)]) {
      const error = (() => {
        try {
          PushSecrets.fromKey(bad);
        } catch (e) {
          return e as Error;
        }
        throw new Error('expected a refusal');
      })();
      expect(error.message).toMatch(/push\.secretKey \(A2A_PUSH_SECRET_KEY\) must be 32 bytes/);
      expect(error.message).not.toContain(bad);
    }
  });

  it('seals token and credentials (fresh IV each time), opens them, and leaves everything else in the clear', () => {
    const secrets = PushSecrets.fromKey(KEY);
    const config = pushConfig('t1', 'c1');
    const sealed = secrets.seal('', config);
    expect(sealed.token).toMatch(/^a2a-sealed:v1:/);
    expect(sealed.authentication?.credentials).toMatch(/^a2a-sealed:v1:/);
    expect(sealed.token).not.toBe(secrets.seal('', config).token);
    expect({ ...sealed, token: '', authentication: { ...sealed.authentication, credentials: '' } }).toEqual({
      ...config,
      token: '',
      authentication: { scheme: 'Bearer', credentials: '' },
    });
    expect(secrets.open('', sealed)).toEqual(config);
    expect(secrets.needsSealing(config)).toBe(true);
    expect(secrets.needsSealing(sealed)).toBe(false);
    expect(PushSecrets.NONE.seal('', config)).toEqual(config);
  });

  it('binds each sealed value to its tenant, task, config and field', () => {
    const secrets = PushSecrets.fromKey(KEY);
    const sealed = secrets.seal('tenant-a', pushConfig('t1', 'c1'));
    expect(() => secrets.open('tenant-b', sealed)).toThrow(/does not open/);
    expect(() => secrets.open('tenant-a', { ...sealed, id: 'c2' })).toThrow(/does not open/);
    expect(() => secrets.open('tenant-a', { ...sealed, token: sealed.authentication?.credentials ?? '' })).toThrow(/does not open/);
    expect(() => PushSecrets.fromKey(OTHER_KEY).open('tenant-a', sealed)).toThrow(/does not open/);
    expect(() => PushSecrets.NONE.open('tenant-a', sealed)).toThrow(/configure push\.secretKey/);
  });
});

/** One durable store under test: a store with the given secrets over the same data, and its rows as stored. */
interface Subject {
  store(secrets: PushSecrets): PushConfigStore & { sealPlaintextSecrets(): Promise<number> };
  rawRows(): Promise<string[]>;
  close(): Promise<void>;
}

function encryptionContract(open: () => Promise<Subject>): void {
  let subject: Subject;
  beforeEach(async () => {
    subject = await open();
  });
  afterEach(() => subject.close());

  it('stores no plaintext secret, reads them back, and keeps the generation', async () => {
    const store = subject.store(PushSecrets.fromKey(KEY));
    await store.put('acme', { ...pushConfig('t1', 'c1'), protocolVersion: '0.3' });
    const rows = await subject.rawRows();
    expect(rows.join('\n')).not.toContain('tok-c1');
    expect(rows.join('\n')).not.toContain('"secret"');
    expect(rows.join('\n')).toContain('a2a-sealed:v1:');
    expect(await store.get('acme', 't1', 'c1')).toEqual({ ...pushConfig('t1', 'c1'), protocolVersion: '0.3' });
    expect((await store.list('acme', 't1')).map(secretOf)).toEqual([['tok-c1', 'secret']]);
  });

  it('refuses to read sealed secrets without the key, or with another one, naming the setting', async () => {
    await subject.store(PushSecrets.fromKey(KEY)).put('', pushConfig('t1', 'c1'));
    await expect(subject.store(PushSecrets.NONE).get('', 't1', 'c1')).rejects.toThrow(/push\.secretKey/);
    await expect(subject.store(PushSecrets.fromKey(OTHER_KEY)).list('', 't1')).rejects.toThrow(/push\.secretKey/);
  });

  it('migrates rows written before the key: plaintext stays readable, sealPlaintextSecrets seals it, once', async () => {
    const before = subject.store(PushSecrets.NONE);
    await before.put('', pushConfig('t1', 'c1'));
    await before.put('other', pushConfig('t2', 'c2'));
    const keyed = subject.store(PushSecrets.fromKey(KEY));
    await keyed.put('', pushConfig('t1', 'c3'));
    expect(await keyed.get('', 't1', 'c1')).toEqual(pushConfig('t1', 'c1'));
    expect((await subject.rawRows()).join('\n')).toContain('tok-c1');
    expect(await before.sealPlaintextSecrets()).toBe(0);
    expect(await keyed.sealPlaintextSecrets()).toBe(2);
    expect((await subject.rawRows()).join('\n')).not.toMatch(/tok-c|"secret"/);
    expect(await keyed.get('', 't1', 'c1')).toEqual(pushConfig('t1', 'c1'));
    expect(await keyed.get('other', 't2', 'c2')).toEqual(pushConfig('t2', 'c2'));
    expect(await keyed.sealPlaintextSecrets()).toBe(0);
  });
}

describe('SQLite push config store, encrypted', () => {
  encryptionContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-sqlite-'));
    const db: SqliteDatabase = openSqlite(join(dir, 'a2a.db'));
    migrateSqlite(db);
    return {
      store: (secrets) => new SqlitePushConfigStore(db, { secrets }),
      rawRows: async () => (db.prepare('SELECT config FROM a2a_push_configs').all() as Array<{ config: string }>).map((r) => r.config),
      close: async () => {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

describeWithPostgres('PostgreSQL push config store, encrypted', () => {
  encryptionContract(async () => {
    const { schema, pool, drop } = await freshSchema();
    await migratePostgres(pool, { schema });
    return {
      store: (secrets) => new PostgresPushConfigStore(pool, { schema, secrets }),
      rawRows: async () => (await pool.query<{ config: string }>(`SELECT config::text AS config FROM "${schema}".a2a_push_configs`)).rows.map((r) => r.config),
      close: drop,
    };
  });
});

describe('DynamoDB push config store, encrypted (dynalite)', () => {
  const local = useDynalite();
  encryptionContract(async () => {
    const table = uniqueName('a2a');
    const dynamo = local();
    await migrateDynamo(dynamo.client, { table });
    return {
      store: (secrets) => new DynamoPushConfigStore(dynamo.client, { table, secrets }),
      rawRows: async () => ((await dynamo.client.send(new ScanCommand({ TableName: table }))).Items ?? []).map((item) => item.config?.S ?? ''),
      close: async () => void (await dynamo.client.send(new DeleteTableCommand({ TableName: table }))),
    };
  });
});
