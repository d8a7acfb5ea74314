import { execFileSync } from 'node:child_process';
import dns from 'node:dns';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { isIP, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordingLogger, type RecordingLogger, testAgentCard, userSend, webhookReceiver as receiver } from '@a2a-polyglot/testing';
import { TaskState, type StreamResponse, type TaskPushNotificationConfig } from '@a2a-polyglot/model';
import {
  A2AErrorCode,
  callContext,
  HttpPushSender,
  RequestHandler,
  silentLogger,
  type A2AError,
  type Logger,
  type WebhookResolver,
  type WebhookTransport,
} from '@a2a-polyglot/core';
import { PINNED_WEBHOOK_NETWORK, pinnedHttpTransport, systemResolver } from '../src/webhook-node-transport.js';

/**
 * The core's push sender over the Node side's pinned node:http network, against real
 * receivers on loopback. Every host name goes through an injected resolver; `dns.lookup` is
 * watched so a second, system lookup (what DNS rebinding exploits) fails the test instead of
 * leaving the machine.
 */

const event: StreamResponse = {
  payload: {
    $case: 'statusUpdate',
    value: { taskId: 't1', contextId: 'c', status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined }, metadata: undefined },
  },
};
const configFor = (url: string): TaskPushNotificationConfig => ({ tenant: '', id: 'c1', taskId: 't1', url, token: 'tok', authentication: undefined });

/** Records warnings so a test can see why a delivery was dropped. */
function warningLogger(): Logger & { readonly warnings: Array<{ message: string; fields?: Record<string, unknown> }> } {
  const logger = recordingLogger();
  const warnings = () => logger.lines.filter((l) => l.level === 'warn').map((l) => ({ message: l.msg, fields: l.fields }));
  return Object.defineProperty(logger, 'warnings', { get: warnings }) as RecordingLogger & { readonly warnings: ReturnType<typeof warnings> };
}

/** The real transport, counting connections it is asked to make. */
function countingTransport(): { transport: WebhookTransport; targets: Array<string | undefined> } {
  const targets: Array<string | undefined> = [];
  return { targets, transport: (target, post) => (targets.push(target.address), pinnedHttpTransport(target, post)) };
}

/** Host names the system resolver was asked for (IP literals pass straight through: listen() looks those up). */
let systemLookups: string[];
let lookupSpy: jest.SpyInstance;
beforeEach(() => {
  systemLookups = [];
  const original = dns.lookup;
  lookupSpy = jest.spyOn(dns, 'lookup').mockImplementation(((hostname: string, ...rest: unknown[]) => {
    if (isIP(hostname)) return (original as (...args: unknown[]) => void)(hostname, ...rest);
    systemLookups.push(hostname);
    throw new Error(`unexpected system lookup of ${hostname}`);
  }) as never);
});
afterEach(() => {
  lookupSpy.mockRestore();
  expect(systemLookups).toEqual([]);
});

describe('the system resolver', () => {
  it('answers every address in the dns.lookup shape (checked here on a literal: no query leaves the machine)', async () => {
    await expect(systemResolver('127.0.0.1')).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
  });
});

describe('redirects are never followed', () => {
  it.each([301, 302, 303, 307, 308])('a %i is a failed delivery, even with private networks allowed', async (status) => {
    const target = await receiver();
    const redirector = await receiver((res) => res.writeHead(status, { location: target.url }).end());
    const logger = warningLogger();
    const sender = new HttpPushSender({ ...PINNED_WEBHOOK_NETWORK, allowPrivateNetworks: true, attempts: 3, backoffMs: 1, logger });
    try {
      await sender.send(configFor(redirector.url), event);
      expect(redirector.received).toHaveLength(1); // not retried either
      expect(target.received).toHaveLength(0);
      expect(logger.warnings).toEqual([
        expect.objectContaining({ message: expect.stringContaining('redirects are not followed'), fields: expect.objectContaining({ status }) }),
      ]);
    } finally {
      await Promise.all([target.close(), redirector.close()]);
    }
  });
});

describe('host names are resolved at delivery, and the connection goes to the checked address', () => {
  it('refuses a name answered with loopback before any connection, when private networks are not allowed', async () => {
    const hook = await receiver();
    const resolve = jest.fn<ReturnType<WebhookResolver>, Parameters<WebhookResolver>>(async () => [{ address: '127.0.0.1', family: 4 }]);
    const { transport, targets } = countingTransport();
    const logger = warningLogger();
    try {
      await new HttpPushSender({ resolve, transport, logger, attempts: 3, backoffMs: 1 }).send(configFor(`http://hooks.example.test:${hook.port}/hook`), event);
      expect(resolve).toHaveBeenCalledTimes(1); // refused, not retried
      expect(resolve).toHaveBeenCalledWith('hooks.example.test');
      expect(targets).toEqual([]);
      expect(hook.received).toHaveLength(0);
      expect(logger.warnings).toEqual([
        expect.objectContaining({
          message: 'push delivery refused',
          fields: expect.objectContaining({ reason: expect.stringContaining('127.0.0.1 is loopback') }),
        }),
      ]);
    } finally {
      await hook.close();
    }
  });

  it('with private networks allowed, delivers by name to the resolved loopback address, Host header intact', async () => {
    const hook = await receiver();
    const resolve: WebhookResolver = async () => [{ address: '127.0.0.1', family: 4 }];
    try {
      await new HttpPushSender({ resolve, transport: pinnedHttpTransport, allowPrivateNetworks: true }).send(
        configFor(`http://hooks.example.test:${hook.port}/hook?x=1`),
        event,
      );
      expect(hook.received).toEqual([expect.objectContaining({ host: `hooks.example.test:${hook.port}`, url: '/hook?x=1', method: 'POST' })]);
    } finally {
      await hook.close();
    }
  });

  it('rebinding: connects to the first, checked answer, never to what a later lookup says', async () => {
    const first = await receiver(undefined, '127.0.0.1');
    let second: Awaited<ReturnType<typeof receiver>> | undefined;
    try {
      second = await receiver(undefined, '127.0.0.2', first.port);
    } catch {
      await first.close();
      throw new Error(`127.0.0.2:${first.port} is taken; rerun`);
    }
    let calls = 0;
    const resolve: WebhookResolver = async () => [{ address: ++calls === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
    try {
      await new HttpPushSender({ resolve, transport: pinnedHttpTransport, allowPrivateNetworks: true }).send(
        configFor(`http://rebind.example.test:${first.port}/hook`),
        event,
      );
      expect(calls).toBe(1);
      expect(first.received).toHaveLength(1);
      expect(second.received).toHaveLength(0);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('rebinding under the policy: a public first answer is what the connection gets, a loopback second answer is never asked for', async () => {
    let calls = 0;
    const resolve: WebhookResolver = async () => [{ address: ++calls === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    const targets: Array<string | undefined> = [];
    // Records instead of connecting: the checked address is public, and tests reach only this machine.
    const transport: WebhookTransport = async (target) => (targets.push(target.address), 204);
    await new HttpPushSender({ resolve, transport }).send(configFor('https://rebind.example.test/hook'), event);
    expect(calls).toBe(1);
    expect(targets).toEqual(['93.184.216.34']);
  });

  it('resolves again on each attempt, and checks each answer', async () => {
    let calls = 0;
    const resolve: WebhookResolver = async () => [{ address: ++calls === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    const targets: Array<string | undefined> = [];
    const transport: WebhookTransport = async (target) => (targets.push(target.address), 503);
    const logger = warningLogger();
    await new HttpPushSender({ resolve, transport, logger, attempts: 3, backoffMs: 1 }).send(configFor('http://flip.example.test/hook'), event);
    expect(calls).toBe(2);
    expect(targets).toEqual(['93.184.216.34']);
    expect(logger.warnings.map((w) => w.message)).toEqual(['push delivery failed', 'push delivery refused']);
  });
});

describe('https webhooks keep TLS verification', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'a2a-webhook-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=hooks.example.test',
        '-addext',
        'subjectAltName=DNS:hooks.example.test',
      ],
      { stdio: 'ignore' },
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('connects to the pinned address with the host name as SNI, and refuses an untrusted certificate', async () => {
    const serverNames: string[] = [];
    let requests = 0;
    const server = https.createServer(
      {
        key: readFileSync(join(dir, 'key.pem')),
        cert: readFileSync(join(dir, 'cert.pem')),
        SNICallback: (name, done) => (serverNames.push(name), done(null, undefined)),
      },
      (_req, res) => (requests++, res.writeHead(204).end()),
    );
    const clientErrors: Error[] = [];
    server.on('tlsClientError', (error) => clientErrors.push(error));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const logger = warningLogger();
    try {
      await new HttpPushSender({
        resolve: async () => [{ address: '127.0.0.1' }],
        transport: pinnedHttpTransport,
        allowPrivateNetworks: true,
        attempts: 1,
        logger,
      }).send(configFor(`https://hooks.example.test:${port}/hook`), event);
      expect(serverNames).toEqual(['hooks.example.test']);
      expect(requests).toBe(0);
      expect(logger.warnings).toEqual([
        expect.objectContaining({
          message: 'push delivery error',
          fields: expect.objectContaining({ err: expect.stringMatching(/self[- ]signed certificate/) }),
        }),
      ]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('through the RequestHandler', () => {
  const ctx = () => callContext('IN-PROCESS', { 'a2a-version': '1.0' });
  // Offered the pinned network as the node:http entry points of the server offer it.
  const handler = (allowPrivateWebhooks: boolean) => {
    const h = new RequestHandler({
      card: testAgentCard(),
      allowPrivateWebhooks,
      logger: silentLogger,
      executor: {
        async execute(c) {
          c.working();
          c.complete();
        },
      },
    });
    h.useWebhookNetwork(PINNED_WEBHOOK_NETWORK);
    return h;
  };

  it('CreateTaskPushNotificationConfig refuses credentials in the url and private literals, with a field violation on url', async () => {
    const h = handler(false);
    const sent = await h.sendMessage(userSend('hi'), ctx());
    const taskId = sent.payload?.$case === 'task' ? sent.payload.value.id : '';
    for (const [url, reason] of [
      ['https://user:pass@hooks.example.com/a2a', 'must not carry credentials'],
      ['http://[::ffff:127.0.0.1]:8080/hook', 'embeds 127.0.0.1 is loopback'],
      ['http://[::ffff:169.254.169.254]/latest', 'linkLocal'],
    ] as const) {
      const error = (await h.createTaskPushNotificationConfig({ ...configFor(url), taskId, id: '' }, ctx()).catch((e: unknown) => e)) as A2AError;
      expect(error.code).toBe(A2AErrorCode.InvalidParams);
      expect(error.fieldViolations).toEqual([{ field: 'url', description: expect.stringContaining(reason) }]);
    }
    await expect(h.createTaskPushNotificationConfig({ ...configFor('https://hooks.example.com/a2a'), taskId, id: '' }, ctx())).resolves.toMatchObject({
      taskId,
    });
  });

  it('with allowPrivateWebhooks the default sender, offered the pinned network, delivers to a loopback receiver', async () => {
    const hook = await receiver();
    const h = handler(true);
    try {
      await h.sendMessage(
        userSend('hi', { configuration: { returnImmediately: false, taskPushNotificationConfig: { ...configFor(hook.url), taskId: '', id: '' } } }),
        ctx(),
      );
      await (h as unknown as { push: { idle(): Promise<void> } }).push.idle();
      expect(hook.received.length).toBeGreaterThanOrEqual(3); // task, working, completed
    } finally {
      await hook.close();
    }
  });
});
