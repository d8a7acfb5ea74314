import { AgentCard, parseProtoJson } from '@a2a-polyglot/model';
import { RequestHandler } from '@a2a-polyglot/core';
import { cardInterfaces } from '../src/index.js';
import { startTestServer, testCard, type TestServer } from './helpers.js';

const V03_KEYS = ['protocolVersion', 'url', 'preferredTransport', 'additionalInterfaces', 'supportsAuthenticatedExtendedCard'];

async function card(
  s: TestServer,
  headers: Record<string, string> = {},
  path = '/.well-known/agent-card.json',
): Promise<{ body: any; etag: string | null; vary: string | null }> {
  const res = await fetch(`${s.url}${path}`, { headers });
  expect(res.status).toBe(200);
  return { body: await res.json(), etag: res.headers.get('etag'), vary: res.headers.get('vary') };
}

/** True when the JSON passes the strict v1.0 decoder (unknown members are rejected). */
function isStrictV1Card(json: unknown): boolean {
  try {
    parseProtoJson('AgentCard', AgentCard, json);
    return true;
  } catch {
    return false;
  }
}

describe('agent card for both generations (default cardCompat: merged)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('without A2A-Version: the v1.0 card plus the v0.3 top-level members, at every card path', async () => {
    for (const path of ['/.well-known/agent-card.json', '/.well-known/agent.json', '/a2a/.well-known/agent-card.json']) {
      const { body, vary } = await card(s, {}, path);
      expect(body.supportedInterfaces[0]).toEqual({ url: `${s.url}/a2a/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
      expect(body).toMatchObject({
        protocolVersion: '0.3.0',
        url: `${s.url}/a2a/rpc`,
        preferredTransport: 'JSONRPC',
        additionalInterfaces: [
          { url: `${s.url}/a2a/rpc`, transport: 'JSONRPC' },
          { url: `${s.url}/a2a`, transport: 'HTTP+JSON' },
        ],
        supportsAuthenticatedExtendedCard: true,
      });
      expect(vary).toContain('A2A-Version');
    }
  });

  it('with A2A-Version: 1.0: the pure v1.0 card (strictly valid), with its own ETag', async () => {
    const merged = await card(s);
    const pure = await card(s, { 'a2a-version': '1.0' });
    for (const key of V03_KEYS) expect(pure.body[key]).toBeUndefined();
    expect(isStrictV1Card(pure.body)).toBe(true);
    expect(isStrictV1Card(merged.body)).toBe(false);
    expect(pure.etag).not.toBe(merged.etag);
  });

  it('with A2A-Version: 0.3: the pure v0.3 card', async () => {
    const { body } = await card(s, { 'a2a-version': '0.3' });
    expect(body).toMatchObject({
      protocolVersion: '0.3.0',
      url: `${s.url}/a2a/rpc`,
      preferredTransport: 'JSONRPC',
      capabilities: { streaming: true, pushNotifications: true },
    });
    expect(body.supportedInterfaces).toBeUndefined();
    expect(body.capabilities.extendedAgentCard).toBeUndefined();
  });

  it('an unsupported A2A-Version still gets the default card (discovery never fails)', async () => {
    const { body } = await card(s, { 'a2a-version': '9.9' });
    expect(body.url).toBe(`${s.url}/a2a/rpc`);
    expect(body.supportedInterfaces).toBeDefined();
  });
});

describe('cardCompat switch', () => {
  it('1.0: a header-less request gets the pure v1.0 card; 0.3 is still there on request', async () => {
    const s = await startTestServer({ cardCompat: '1.0' });
    try {
      expect(isStrictV1Card((await card(s)).body)).toBe(true);
      expect((await card(s, { 'a2a-version': '0.3' })).body.preferredTransport).toBe('JSONRPC');
    } finally {
      await s.close();
    }
  });

  it('0.3: a header-less request gets the pure v0.3 card; 1.0 is still there on request', async () => {
    const s = await startTestServer({ cardCompat: '0.3' });
    try {
      const { body } = await card(s);
      expect(body.supportedInterfaces).toBeUndefined();
      expect(body.url).toBe(`${s.url}/a2a/rpc`);
      expect(isStrictV1Card((await card(s, { 'a2a-version': '1.0' })).body)).toBe(true);
    } finally {
      await s.close();
    }
  });
});

describe('the experimental A2A 1.1 in the card', () => {
  const versions = (body: { supportedInterfaces: Array<{ protocolBinding: string; protocolVersion: string }> }) =>
    body.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion}`);

  it('a handler serving 1.1 gets every 1.0 interface listed again as 1.1, after the 1.0 ones; the 1.1 card is the pure v1.0 one', async () => {
    const handler = new RequestHandler({ card: testCard(), executor: { execute: async () => undefined }, experimental11: true });
    const s = await startTestServer({ handler });
    try {
      const { body } = await card(s, { 'a2a-version': '1.0' });
      expect(versions(body)).toEqual(['JSONRPC 1.0', 'HTTP+JSON 1.0', 'JSONRPC 1.1', 'HTTP+JSON 1.1', 'JSONRPC 0.3', 'HTTP+JSON 0.3']);
      expect(body.supportedInterfaces[2]).toEqual({ url: `${s.url}/a2a/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.1' });
      const asked11 = await card(s, { 'a2a-version': '1.1' });
      expect(isStrictV1Card(asked11.body)).toBe(true);
      expect(asked11.body).toEqual(body);
    } finally {
      await s.close();
    }
  });

  it('a handler that does not serve 1.1 lists none', async () => {
    const s = await startTestServer();
    try {
      expect(versions((await card(s, { 'a2a-version': '1.0' })).body)).toEqual(['JSONRPC 1.0', 'HTTP+JSON 1.0', 'JSONRPC 0.3', 'HTTP+JSON 0.3']);
    } finally {
      await s.close();
    }
  });

  it('cardInterfaces copies the extra 1.0 interfaces (gRPC, WebSocket) too, never the v0.3 ones', () => {
    const extra = [
      { url: 'grpc.example:50051', protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: '' },
      { url: 'grpc.example:50051', protocolBinding: 'GRPC', protocolVersion: '0.3', tenant: '' },
    ];
    const listed = cardInterfaces(testCard(), 'https://a.example', '/a2a', extra, { experimental11: true }).map(
      (i) => `${i.protocolBinding} ${i.protocolVersion}`,
    );
    expect(listed).toEqual([
      'JSONRPC 1.0',
      'HTTP+JSON 1.0',
      'GRPC 1.0',
      'JSONRPC 1.1',
      'HTTP+JSON 1.1',
      'GRPC 1.1',
      'JSONRPC 0.3',
      'HTTP+JSON 0.3',
      'GRPC 0.3',
    ]);
  });
});
