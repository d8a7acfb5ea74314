/**
 * The executor's listener security end to end: `tls` turns on HTTPS (and the card says so)
 * and TLS on gRPC, `tls.clientCaFile` makes gRPC require a client certificate and
 * `tls.clientCertIdentity` makes its common name the caller; `rateLimit` limits every binding.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { A2AErrorCode } from '@a2a-polyglot/core';
import { Client, GRPC_BINDING, textMessage } from '@a2a-polyglot/client';
import { grpcTransportFactoryWith } from '@a2a-polyglot/client/grpc';
import { AgentCard } from '@a2a-polyglot/model';
import { makeTestPki, type TestPki } from '@a2a-polyglot/testing';
import { credentials } from '@grpc/grpc-js';
import { ConfigError, configFromEnv, parseConfigInput, resolveConfig, startExecutor, type RunningExecutor } from '../src/index.js';

const KEYS_MS = 30_000;

function httpsJson(url: string, ca: string): Promise<any> {
  return new Promise((resolve, reject) => {
    request(url, { ca, headers: { 'a2a-version': '1.0' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
    })
      .on('error', reject)
      .end();
  });
}

describe('the executor with tls and mutual TLS on gRPC', () => {
  let pki: TestPki;
  let dir: string;
  let executor: RunningExecutor;

  beforeAll(async () => {
    pki = makeTestPki();
    dir = mkdtempSync(join(tmpdir(), 'a2a-tls-'));
    for (const [name, pem] of [
      ['server.pem', pki.server.cert],
      ['server.key', pki.server.key],
      ['ca.pem', pki.ca.cert],
    ])
      writeFileSync(join(dir, name!), pem!);
    executor = await startExecutor({
      host: '127.0.0.1',
      port: 0,
      grpcPort: 0,
      logLevel: 'error',
      demo: { chunkDelayMs: 0 },
      tls: { certFile: join(dir, 'server.pem'), keyFile: join(dir, 'server.key'), clientCaFile: join(dir, 'ca.pem'), clientCertIdentity: true },
    });
  }, KEYS_MS);
  afterAll(async () => {
    await executor?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Our client on the card's gRPC interface, over TLS trusting the test CA, with `identity` if given. */
  async function grpcClient(identity?: { cert: string; key: string }): Promise<Client> {
    const card = await httpsJson(`${executor.url}/.well-known/agent-card.json`, pki.ca.cert);
    const ca = Buffer.from(pki.ca.cert);
    const creds = identity ? credentials.createSsl(ca, Buffer.from(identity.key), Buffer.from(identity.cert)) : credentials.createSsl(ca);
    return new Client(AgentCard.fromJSON(card), {
      bindings: ['grpc'],
      transports: { [GRPC_BINDING]: grpcTransportFactoryWith({ credentials: creds }) },
      timeoutMs: 5000,
      retry: { attempts: 0 },
    });
  }

  it('serves HTTPS and lists https:// URLs for JSON-RPC, REST and gRPC in the card', async () => {
    expect(executor.url).toMatch(/^https:\/\//);
    const card = await httpsJson(`${executor.url}/.well-known/agent-card.json`, pki.ca.cert);
    const byBinding = Object.fromEntries(card.supportedInterfaces.map((i: any) => [i.protocolBinding, i.url]));
    expect(byBinding.JSONRPC).toBe(`${executor.url}/a2a/rpc`);
    expect(byBinding.GRPC).toBe(`https://127.0.0.1:${executor.grpc!.port}`);
    expect(card.securitySchemes.mtls).toEqual({ mtlsSecurityScheme: { description: expect.stringContaining('client certificate') } });
  });

  it(
    'accepts our client over gRPC with a CA-signed client certificate, whose CN owns the tasks',
    async () => {
      const svcA = await grpcClient(pki.issueClient('svc-a'));
      const svcB = await grpcClient(pki.issueClient('svc-b'));
      try {
        const answer = await svcA.sendMessage({ message: textMessage('hello over mTLS') });
        expect(answer.payload?.$case).toBe('task');
        const taskId = answer.payload?.$case === 'task' ? answer.payload.value.id : '';
        expect((await svcA.getTask({ id: taskId })).id).toBe(taskId);
        await expect(svcB.getTask({ id: taskId })).rejects.toMatchObject({ code: A2AErrorCode.TaskNotFound });
      } finally {
        await svcA.close();
        await svcB.close();
      }
    },
    KEYS_MS,
  );

  it('refuses a gRPC client without a certificate', async () => {
    const anonymous = await grpcClient();
    try {
      await expect(anonymous.listTasks({})).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
    } finally {
      await anonymous.close();
    }
  });
});

/** The card as served (with interface URLs), read without spending a rate-limit point. */
async function cardOf(executor: RunningExecutor): Promise<AgentCard> {
  return AgentCard.fromJSON(await (await fetch(`${executor.url}/.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } })).json());
}

describe('the executor with rate limits', () => {
  let executor: RunningExecutor;
  beforeAll(async () => {
    executor = await startExecutor({ host: '127.0.0.1', port: 0, grpcPort: false, logLevel: 'error', rateLimit: { addressPoints: 2, addressWindowSec: 60 } });
  });
  afterAll(() => executor?.close());

  it('answers 429 with Retry-After once a client address spent its budget', async () => {
    const call = () =>
      fetch(`${executor.url}/a2a/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }),
      });
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    const refused = await call();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // Our client reads the refusal as RATE_LIMITED with the wait, whatever the HTTP binding.
    for (const binding of ['jsonrpc', 'rest'] as const) {
      const client = new Client(await cardOf(executor), { bindings: [binding], retry: { attempts: 0 } });
      try {
        const error = await client.listTasks({}).catch((e: unknown) => e);
        expect(error).toMatchObject({ code: A2AErrorCode.RateLimited, metadata: { scope: 'address' } });
        expect(Number((error as { metadata: Record<string, string> }).metadata.retryAfterSeconds)).toBeGreaterThanOrEqual(1);
      } finally {
        await client.close();
      }
    }
  });
});

describe('tls configuration errors', () => {
  it('needs cert and key together, a CA for client-certificate identities, and readable files', async () => {
    await expect(startExecutor({ port: 0, grpcPort: false, tls: { certFile: '/x.pem' } })).rejects.toThrow(/tls\.certFile and tls\.keyFile together/);
    await expect(startExecutor({ port: 0, grpcPort: false, tls: { certFile: '/x.pem', keyFile: '/x.key', clientCertIdentity: true } })).rejects.toThrow(
      /clientCertIdentity needs tls\.clientCaFile/,
    );
    const error = await startExecutor({
      port: 0,
      grpcPort: false,
      logLevel: 'error',
      tls: { certFile: '/nonexistent/cert.pem', keyFile: '/nonexistent/key.pem' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/tls\.certFile \/nonexistent\/cert\.pem cannot be read/);
  });
});

describe('rateLimit and tls configuration keys', () => {
  it('are read from the environment, typed, and paths resolve against the base directory', () => {
    const layer = configFromEnv(
      {
        A2A_RATE_LIMIT_ADDRESS_POINTS: '100',
        A2A_RATE_LIMIT_IDENTITY_WINDOW_SEC: '10',
        A2A_RATE_LIMIT_MAX_KEYS: '50000',
        A2A_TLS_CERT_FILE: 'certs/server.pem',
        A2A_TLS_CLIENT_CERT_IDENTITY: 'yes',
      },
      '/srv/a2a',
    );
    expect(layer.rateLimit).toEqual({ addressPoints: 100, identityWindowSec: 10, maxKeys: 50_000 });
    expect(layer.tls).toEqual({ certFile: '/srv/a2a/certs/server.pem', clientCertIdentity: true });
    expect(parseConfigInput({ tls: { keyFile: 'k.pem' } }, 'config file x.json: ', '/etc/a2a').tls).toEqual({ keyFile: '/etc/a2a/k.pem' });
    const defaults = resolveConfig({});
    // The key cap is on by default: memory stays bounded however many clients come.
    expect(defaults.rateLimit).toEqual({ addressPoints: 0, addressWindowSec: 60, identityPoints: 0, identityWindowSec: 60, maxKeys: 10_000 });
    expect(defaults.tls.clientCertIdentity).toBe(false);
  });

  it('refuses bad values with the key in the message', () => {
    expect(() => configFromEnv({ A2A_RATE_LIMIT_ADDRESS_POINTS: 'many' }, '/')).toThrow(/A2A_RATE_LIMIT_ADDRESS_POINTS/);
    expect(() => parseConfigInput({ rateLimit: { addressWindowSec: 0 } }, '')).toThrow(/rateLimit\.addressWindowSec/);
    expect(() => parseConfigInput({ rateLimit: { maxKeys: 0 } }, '')).toThrow(/rateLimit\.maxKeys/);
    expect(() => parseConfigInput({ rateLimit: { perIp: 5 } }, '')).toThrow(/perIp/);
  });
});
