/**
 * `a2a-migrate` as an operator runs it (a child process from the sources), on DynamoDB
 * (dynalite on 127.0.0.1): flags, the executor's variables, and usage errors; on SQLite: the
 * encryption of push secrets stored before `A2A_PUSH_SECRET_KEY` was set.
 */
import { PushSecrets } from '@a2a-polyglot/stores';
import { migrateSqlite, openSqlite, SqlitePushConfigStore } from '@a2a-polyglot/stores/sqlite';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useDynalite } from './dynalite.js';
import { pushConfig } from './fixtures.js';
import { uniqueName } from './services.js';

const ROOT = join(__dirname, '../../..');
/**
 * Dummy identity: the SDK then needs no AWS configuration and never asks a metadata service.
 * The SDK's one-time Node 20 support notice is turned off so stderr holds only our lines.
 */
const AWS_ENV = {
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  AWS_EC2_METADATA_DISABLED: 'true',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

function migrate(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, 'scripts/run-ts.js'), join(ROOT, 'packages/stores/src/migrate-cli.ts'), ...args],
      { env: { PATH: process.env.PATH ?? '', ...AWS_ENV, ...env }, timeout: 20_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const local = useDynalite();

describe('a2a-migrate --dynamodb', () => {
  it('creates the table once, from flags or from the executor variables', async () => {
    const table = uniqueName('a2a');
    const first = await migrate(['--dynamodb', table, '--endpoint', local().endpoint, '--region', 'local']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toBe(
      `DynamoDB table ${table}: migrated from schema version 0 to 1\nNote: this endpoint has no TTL API; finished tasks will not expire\n`,
    );
    const again = await migrate([], {
      A2A_STORE: 'dynamodb',
      A2A_DYNAMODB_TABLE: table,
      A2A_DYNAMODB_ENDPOINT: local().endpoint,
      A2A_DYNAMODB_REGION: 'local',
    });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^DynamoDB table ${table}: already at schema version 1\\n`));
  });

  it('refuses two targets (exit 2) and reports an unreachable endpoint (exit 1)', async () => {
    const both = await migrate(['--dynamodb', 'a2a-tasks', '--sqlite', 'x.db']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^Give one of --postgres, --sqlite or --dynamodb\n/);
    const down = await migrate(['--dynamodb', 'a2a-tasks', '--endpoint', 'http://127.0.0.1:1', '--region', 'local']);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^Migration failed: .*ECONNREFUSED/);
  });
});

describe('a2a-migrate with A2A_PUSH_SECRET_KEY', () => {
  const key = Buffer.alloc(32, 3).toString('base64');
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'a2a-migrate-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('encrypts the plaintext push secrets of an existing store, once', async () => {
    const path = join(dir, 'a2a.db');
    const db = openSqlite(path);
    migrateSqlite(db);
    await new SqlitePushConfigStore(db).put('', pushConfig('t1', 'c1'));
    db.close();
    const first = await migrate(['--sqlite', path], { A2A_PUSH_SECRET_KEY: key });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toBe(`SQLite ${path}: already at schema version 2\nPush config secrets: encrypted 1 config(s)\n`);
    const again = await migrate(['--sqlite', path], { A2A_PUSH_SECRET_KEY: key });
    expect(again.stdout).toMatch(/Push config secrets: none stored in plaintext\n$/);
    const reopened = openSqlite(path);
    try {
      const raw = (reopened.prepare('SELECT config FROM a2a_push_configs').get() as { config: string }).config;
      expect(raw).not.toContain('tok-c1');
      expect(await new SqlitePushConfigStore(reopened, { secrets: PushSecrets.fromKey(key) }).get('', 't1', 'c1')).toEqual(pushConfig('t1', 'c1'));
    } finally {
      reopened.close();
    }
  });

  it('refuses a malformed key as a usage error, without echoing it', async () => {
    const bad = await migrate(['--sqlite', join(dir, 'a2a.db')], { A2A_PUSH_SECRET_KEY: 'not-a-key-at-all' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^push\.secretKey \(A2A_PUSH_SECRET_KEY\) must be 32 bytes/);
    expect(bad.stderr).not.toContain('not-a-key-at-all');
  });
});
