/**
 * Who owns a task, end to end over gRPC with mutual TLS: an API key, a JWT and a client
 * certificate that all say "alice" are three callers (none reads another's task) unless
 * `auth.principalAliases` says they are one; a certificate is its whole subject, so one without
 * CN, or with two, passes for no other.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { A2AErrorCode } from '@a2a-polyglot/core';
import { Client, GRPC_BINDING, textMessage } from '@a2a-polyglot/client';
import { grpcTransportFactoryWith } from '@a2a-polyglot/client/grpc';
import { AgentCard } from '@a2a-polyglot/model';
import { makeTestPki, TestIdentityProvider, type TestKeyPair, type TestPki, type TestSigningKey } from '@a2a-polyglot/testing';
import { credentials } from '@grpc/grpc-js';
import { startExecutor, type RunningExecutor } from '../src/index.js';

const KEYS_MS = 60_000;
const CA_DN = 'CN=a2a-polyglot test CA';

describe('principal ids across schemes', () => {
  let pki: TestPki;
  let idp: TestIdentityProvider;
  let signingKey: TestSigningKey;
  let dir: string;
  let svc: TestKeyPair;
  const executors: RunningExecutor[] = [];

  beforeAll(async () => {
    pki = makeTestPki();
    dir = mkdtempSync(join(tmpdir(), 'a2a-identity-'));
    writeFileSync(join(dir, 'server.pem'), pki.server.cert);
    writeFileSync(join(dir, 'server.key'), pki.server.key);
    writeFileSync(join(dir, 'ca.pem'), pki.ca.cert);
    svc = pki.issueClient('transport-only'); // mutual TLS needs a certificate even where the key or token names the caller
    idp = await new TestIdentityProvider('https://idp.test', 'a2a-executor').start();
    signingKey = await idp.newKey('k1', 'ES256');
    idp.published = [signingKey.jwk];
  }, KEYS_MS);
  afterAll(async () => {
    await Promise.all(executors.map((e) => e.close()));
    await idp.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(principalAliases?: Record<string, string>): Promise<RunningExecutor> {
    const executor = await startExecutor({
      host: '127.0.0.1',
      port: 0,
      grpcPort: 0,
      logLevel: 'error',
      demo: { chunkDelayMs: 0 },
      auth: { apiKeys: { 'alice-key': 'alice' }, jwksUrl: idp.jwksUrl, jwtIssuer: idp.issuer, jwtAudience: idp.audience, principalAliases },
      tls: { certFile: join(dir, 'server.pem'), keyFile: join(dir, 'server.key'), clientCaFile: join(dir, 'ca.pem'), clientCertIdentity: true },
    });
    executors.push(executor);
    return executor;
  }

  /** Our gRPC client of `executor` with the certificate `cert` and, if given, an API key or a bearer token. */
  function caller(executor: RunningExecutor, cert: TestKeyPair, auth: { apiKey?: string; bearerToken?: string } = {}): Client {
    const card = AgentCard.fromPartial({
      name: 'x',
      supportedInterfaces: [{ url: `https://127.0.0.1:${executor.grpc?.port}`, protocolBinding: 'GRPC', protocolVersion: '1.0' }],
    });
    const creds = credentials.createSsl(Buffer.from(pki.ca.cert), Buffer.from(cert.key), Buffer.from(cert.cert));
    return new Client(card, {
      bindings: ['grpc'],
      transports: { [GRPC_BINDING]: grpcTransportFactoryWith({ credentials: creds }) },
      timeoutMs: 5000,
      retry: { attempts: 0 },
      ...auth,
    });
  }

  /** A task `owner` creates, and whether each of `others` can read it. */
  async function whoReads(owner: Client, others: readonly Client[]): Promise<boolean[]> {
    try {
      const answer = await owner.sendMessage({ message: textMessage('mine') });
      const id = answer.payload?.$case === 'task' ? answer.payload.value.id : '';
      expect((await owner.getTask({ id })).id).toBe(id);
      return await Promise.all(
        others.map((other) =>
          other.getTask({ id }).then(
            () => true,
            (error: { code?: unknown }) => {
              expect(error.code).toBe(A2AErrorCode.TaskNotFound);
              return false;
            },
          ),
        ),
      );
    } finally {
      await Promise.all([owner, ...others].map((c) => c.close()));
    }
  }

  it(
    "an API key, a JWT and a certificate that all say alice are three callers: neither the JWT nor the certificate reads the key's task",
    async () => {
      const executor = await start();
      const aliceCert = pki.issueClient('alice');
      const readers = [caller(executor, svc, { bearerToken: await idp.sign(signingKey) }), caller(executor, aliceCert)];
      expect(await whoReads(caller(executor, svc, { apiKey: 'alice-key' }), readers)).toEqual([false, false]);
    },
    KEYS_MS,
  );

  it(
    'a certificate without CN is not the one whose CN reads like its subject, and one with two CNs is not its first',
    async () => {
      const executor = await start();
      const noCn = pki.issueClient([{ shortName: 'O', value: 'x' }]);
      const cnLikeSubject = pki.issueClient('O=x');
      expect(await whoReads(caller(executor, noCn), [caller(executor, cnLikeSubject)])).toEqual([false]);
      const twoCns = pki.issueClient([
        { shortName: 'CN', value: 'alice' },
        { shortName: 'CN', value: 'mallory' },
      ]);
      const alice = pki.issueClient('alice');
      expect(await whoReads(caller(executor, alice), [caller(executor, twoCns)])).toEqual([false]);
      expect(await whoReads(caller(executor, twoCns), [caller(executor, alice)])).toEqual([false]);
    },
    KEYS_MS,
  );

  it(
    'auth.principalAliases makes them one identity, explicitly: jwt:<iss>#<sub> and cert:<issuer>#<subject> mapped to key:alice',
    async () => {
      const executor = await start({ [`jwt:${idp.issuer}#alice`]: 'key:alice', [`cert:${CA_DN}#CN=alice`]: 'key:alice' });
      const aliceCert = pki.issueClient('alice');
      const bobToken = await idp.sign(signingKey, { sub: 'bob' });
      const readers = [
        caller(executor, svc, { bearerToken: await idp.sign(signingKey) }),
        caller(executor, aliceCert),
        caller(executor, svc, { bearerToken: bobToken }),
      ];
      expect(await whoReads(caller(executor, svc, { apiKey: 'alice-key' }), readers)).toEqual([true, true, false]);
    },
    KEYS_MS,
  );
});
