import { type A2AError, A2AErrorCode, ClientCertificateAuthenticator } from '@a2a-polyglot/core';
import type { Task } from '@a2a-polyglot/model';
import { makeTestPki, type TestPki } from '@a2a-polyglot/testing';
import { credentials, ServerCredentials } from '@grpc/grpc-js';
import { GrpcTransport } from './client.js';
import { startTestServer, userMessage, type TestServer } from './helpers.js';

async function failure(call: Promise<unknown>): Promise<A2AError> {
  try {
    await call;
  } catch (error) {
    return error as A2AError;
  }
  throw new Error('expected the call to fail');
}

let pki: TestPki;
// Key generation takes seconds on a busy machine: hooks and tests that make keys get more time.
const KEYS_MS = 30_000;
beforeAll(() => {
  pki = makeTestPki();
}, KEYS_MS);

/** A client of `t` over TLS trusting the test CA, presenting `identity` when given. */
function tlsClient(t: TestServer, identity?: { cert: string; key: string }, ca = pki.ca.cert): GrpcTransport {
  const creds = identity
    ? credentials.createSsl(Buffer.from(ca), Buffer.from(identity.key), Buffer.from(identity.cert))
    : credentials.createSsl(Buffer.from(ca));
  return new GrpcTransport({ url: `localhost:${t.server.port}`, credentials: creds });
}

describe('gRPC over TLS', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      grpc: { credentials: ServerCredentials.createSsl(null, [{ private_key: Buffer.from(pki.server.key), cert_chain: Buffer.from(pki.server.cert) }], false) },
    });
  }, KEYS_MS);
  afterAll(() => t.close());

  it('serves a client that trusts the CA', async () => {
    const client = tlsClient(t);
    try {
      const task = (await client.sendMessage(userMessage('steps 1'))).payload!.value as Task;
      expect(task.id).toBeTruthy();
    } finally {
      client.close();
    }
  });

  it(
    'is unreachable for a plaintext client and for one that does not trust the CA',
    async () => {
      const plain = new GrpcTransport({ url: t.url });
      const untrusting = tlsClient(t, undefined, makeTestPki({ caName: 'another CA' }).ca.cert);
      try {
        expect((await failure(plain.listTasks({}, { timeoutMs: 3000 }))).code).toBe(A2AErrorCode.Unavailable);
        expect((await failure(untrusting.listTasks({}, { timeoutMs: 3000 }))).code).toBe(A2AErrorCode.Unavailable);
      } finally {
        plain.close();
        untrusting.close();
      }
    },
    KEYS_MS,
  );
});

describe('gRPC with mutual TLS', () => {
  let t: TestServer;
  beforeAll(async () => {
    const server = ServerCredentials.createSsl(
      Buffer.from(pki.ca.cert),
      [{ private_key: Buffer.from(pki.server.key), cert_chain: Buffer.from(pki.server.cert) }],
      true,
    );
    t = await startTestServer({ grpc: { credentials: server }, handler: { authenticator: new ClientCertificateAuthenticator() } });
  }, KEYS_MS);
  afterAll(() => t.close());

  it(
    'refuses a client without a certificate, and one whose certificate another CA signed',
    async () => {
      const anonymous = tlsClient(t);
      const stranger = tlsClient(t, makeTestPki({ caName: 'rogue CA' }).issueClient('svc-a'));
      try {
        expect((await failure(anonymous.listTasks({}, { timeoutMs: 3000 }))).code).toBe(A2AErrorCode.Unavailable);
        expect((await failure(stranger.listTasks({}, { timeoutMs: 3000 }))).code).toBe(A2AErrorCode.Unavailable);
      } finally {
        anonymous.close();
        stranger.close();
      }
    },
    KEYS_MS,
  );

  it(
    'accepts a client with a certificate from the CA, whose common name is its identity',
    async () => {
      const svcA = tlsClient(t, pki.issueClient('svc-a'));
      const svcB = tlsClient(t, pki.issueClient('svc-b'));
      try {
        const task = (await svcA.sendMessage(userMessage('steps 1'))).payload!.value as Task;
        expect((await svcA.getTask({ id: task.id })).id).toBe(task.id);
        // Ownership follows the certificate: svc-b cannot see svc-a's task.
        expect((await failure(svcB.getTask({ id: task.id }))).code).toBe(A2AErrorCode.TaskNotFound);
        expect((await svcB.listTasks({})).tasks).toEqual([]);
      } finally {
        svcA.close();
        svcB.close();
      }
    },
    KEYS_MS,
  );
});
