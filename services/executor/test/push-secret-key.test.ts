/**
 * `push.secretKey`: the executor on its SQLite store keeps webhook tokens and credentials
 * encrypted at rest, encrypts those stored before the key was set when it starts, reads never
 * answer them, and the webhook still receives the real ones.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@a2a-polyglot/core';
import { migrateSqlite, openSqlite } from '@a2a-polyglot/stores/sqlite';
import { recordingLogger, waitFor } from '@a2a-polyglot/testing';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { json, postJson, userMessage, V1 } from './helpers.js';

const KEY = Buffer.alloc(32, 5).toString('base64');

let dir: string;
let hooks: Server;
let hookUrl: string;
const received: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  hooks = createServer((req, res) => {
    received.push(req.headers);
    req.resume().on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  hooks.closeAllConnections();
  await new Promise((resolve) => hooks.close(resolve));
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'a2a-push-key-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const start = (secretKey: string | undefined, logger = silentLogger) =>
  startExecutor(
    {
      host: '127.0.0.1',
      port: 0,
      grpcPort: false,
      shutdownGraceMs: 100,
      store: { kind: 'sqlite', path: join(dir, 'a2a.db') },
      push: { allowPrivateNetworks: true, secretKey },
    },
    { logger },
  );

function rawConfigs(): string {
  const db = openSqlite(join(dir, 'a2a.db'));
  try {
    migrateSqlite(db);
    return (db.prepare('SELECT config FROM a2a_push_configs').all() as Array<{ config: string }>).map((r) => r.config).join('\n');
  } finally {
    db.close();
  }
}

/** An input-required task with one webhook; answers its id. */
async function taskWithWebhook(running: RunningExecutor): Promise<string> {
  const asked = await json(await postJson(`${running.url}/a2a/message:send`, { message: userMessage('ask') }));
  const id: string = asked.task.id;
  const created = await postJson(`${running.url}/a2a/tasks/${id}/pushNotificationConfigs`, {
    url: hookUrl,
    token: 'tok-secret-123',
    authentication: { scheme: 'Bearer', credentials: 'cred-secret-456' },
  });
  expect(created.status).toBe(201);
  return id;
}

/** Answers the task's question, so its webhook gets a delivery: with the real secrets in its headers. */
async function expectRealSecretsDelivered(running: RunningExecutor, id: string): Promise<void> {
  received.length = 0;
  await postJson(`${running.url}/a2a/message:send`, { message: userMessage('blue', { taskId: id }) });
  await waitFor(() => received.length > 0, { what: 'a webhook delivery' });
  expect(received[0]).toMatchObject({ authorization: 'Bearer cred-secret-456', 'x-a2a-notification-token': 'tok-secret-123' });
}

it('stores the secrets encrypted, reads answer them redacted, the webhook gets the real ones', async () => {
  const running = await start(KEY);
  try {
    const id = await taskWithWebhook(running);
    expect(rawConfigs()).not.toMatch(/tok-secret-123|cred-secret-456/);
    expect(rawConfigs()).toContain('a2a-sealed:v1:');
    const listed = await json(await fetch(`${running.url}/a2a/tasks/${id}/pushNotificationConfigs`, { headers: V1 }));
    expect(listed.configs[0]).toMatchObject({ token: '********', authentication: { scheme: 'Bearer', credentials: '********' } });
    await expectRealSecretsDelivered(running, id);
  } finally {
    await running.close();
  }
});

it('encrypts at startup the secrets stored before the key was set', async () => {
  const before = await start(undefined);
  const id = await taskWithWebhook(before).finally(() => before.close());
  expect(rawConfigs()).toContain('tok-secret-123');
  const logger = recordingLogger();
  const after = await start(KEY, logger);
  try {
    expect(rawConfigs()).not.toMatch(/tok-secret-123|cred-secret-456/);
    expect(logger.lines.find((l) => l.msg.startsWith('Encrypted the push config secrets'))?.fields).toMatchObject({ sealed: 1 });
    await expectRealSecretsDelivered(after, id);
  } finally {
    await after.close();
  }
});

it('refuses to start with a malformed key, naming the setting and not the value', async () => {
  const failure = await start('not-a-key').then(
    (running) => running.close().then(() => new Error('started')),
    (error: Error) => error,
  );
  expect(failure.message).toMatch(/push\.secretKey \(A2A_PUSH_SECRET_KEY\) must be 32 bytes/);
  expect(failure.message).not.toContain('not-a-key');
});
