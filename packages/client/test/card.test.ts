/** Card discovery and validation: the failures a user meets first, each with one clear message. */
import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cardCandidates, Client, protocolGeneration, resolveAgentCard, selectInterface, validateAgentCard, WEBSOCKET_BINDING } from '../src/index.js';
import { cardJson, sendJson, startFakeServer, type FakeServer } from './fake-server.js';

async function failure(promise: Promise<unknown>): Promise<A2AError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(A2AError);
  return error as A2AError;
}

describe('card resolution', () => {
  let server: FakeServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('fetches /.well-known/agent-card.json with A2A-Version: 1.0 and validates it', async () => {
    server = await startFakeServer((req, res) =>
      req.url === '/.well-known/agent-card.json' ? sendJson(res, 200, cardJson('http://x')) : sendJson(res, 404, {}),
    );
    const { card, url } = await resolveAgentCard(server.url);
    expect(card.name).toBe('fake');
    expect(url).toBe(`${server.url}/.well-known/agent-card.json`);
    expect(server.requests[0]!.headers['a2a-version']).toBe('1.0');
  });

  it('falls back to the legacy /.well-known/agent.json', async () => {
    server = await startFakeServer((req, res) => (req.url === '/.well-known/agent.json' ? sendJson(res, 200, cardJson('http://x')) : sendJson(res, 404, {})));
    const { url } = await resolveAgentCard(server.url);
    expect(url).toBe(`${server.url}/.well-known/agent.json`);
  });

  it('tries the well-known path under a given prefix first, and takes a .json URL as the card itself', () => {
    expect(cardCandidates('http://h:1/a2a/')).toEqual([
      'http://h:1/a2a/.well-known/agent-card.json',
      'http://h:1/.well-known/agent-card.json',
      'http://h:1/.well-known/agent.json',
    ]);
    expect(cardCandidates('http://h:1/cards/me.json')).toEqual(['http://h:1/cards/me.json']);
  });

  it('a plain HTTP server (404 everywhere) is "not an A2A server"', async () => {
    server = await startFakeServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>Not Found</body></html>');
    });
    const error = await failure(resolveAgentCard(server.url));
    expect(error.metadata.clientFailure).toBe('not-a2a');
    expect(error.message).toMatch(/does not look like an A2A server: no agent card at .*agent-card\.json \(404\)/);
  });

  it('an HTML page where the card should be is "not an A2A server"', async () => {
    server = await startFakeServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Welcome</title>');
    });
    const error = await failure(resolveAgentCard(server.url));
    expect(error.metadata.clientFailure).toBe('not-a2a');
    expect(error.message).toMatch(/answered text\/html: "<!doctype html>/);
  });

  it.each([
    ['no name', { name: undefined }, /"name" is missing/],
    ['no interfaces', { supportedInterfaces: undefined }, /"supportedInterfaces" is missing/],
    ['empty interfaces', { supportedInterfaces: [] }, /non-empty array/],
    ['interface without url', { supportedInterfaces: [{ protocolBinding: 'JSONRPC' }] }, /supportedInterfaces\[0\]\.url is missing/],
    ['no capabilities', { capabilities: undefined }, /"capabilities" is missing/],
  ])('a malformed card (%s) gets a message naming the field', async (_name, patch, pattern) => {
    server = await startFakeServer((_req, res) => sendJson(res, 200, { ...cardJson('http://x'), ...patch }));
    const error = await failure(resolveAgentCard(server.url));
    expect(error.metadata.clientFailure).toBe('bad-card');
    expect(error.message).toMatch(pattern);
  });

  it('a v0.3 card becomes interfaces marked 0.3: the preferred transport first, then additionalInterfaces', () => {
    const card = validateAgentCard({
      name: 'old',
      protocolVersion: '0.3.0',
      url: 'http://x/rpc',
      preferredTransport: 'JSONRPC',
      additionalInterfaces: [
        { url: 'http://x/rpc', transport: 'JSONRPC' },
        { url: 'http://x/rest', transport: 'HTTP+JSON' },
        { url: 'x:50051', transport: 'GRPC' },
      ],
      supportsAuthenticatedExtendedCard: true,
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    });
    expect(card.supportedInterfaces.map((i) => [i.protocolBinding, i.url, i.protocolVersion])).toEqual([
      ['JSONRPC', 'http://x/rpc', '0.3'],
      ['HTTP+JSON', 'http://x/rest', '0.3'],
      ['GRPC', 'x:50051', '0.3'],
    ]);
    expect(card.capabilities?.extendedAgentCard).toBe(true);
  });

  it('a v0.3 card without preferredTransport defaults to JSON-RPC; one without capabilities is still malformed', () => {
    const card = validateAgentCard({ name: 'old', url: 'http://x/a2a', protocolVersion: '0.3.0', capabilities: {} });
    expect(card.supportedInterfaces).toEqual([expect.objectContaining({ url: 'http://x/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3' })]);
    expect(() => validateAgentCard({ name: 'old', url: 'http://x/a2a', protocolVersion: '0.3.0' })).toThrow(/"capabilities" is missing/);
  });

  it('a merged card keeps its supportedInterfaces and adds v0.3 endpoints it names only at the top level', () => {
    const card = validateAgentCard({
      ...cardJson('http://x'),
      protocolVersion: '0.3.0',
      url: 'http://x/rpc',
      preferredTransport: 'JSONRPC',
      additionalInterfaces: [
        { url: 'http://x/rpc', transport: 'JSONRPC' },
        { url: 'x:50051', transport: 'GRPC' },
      ],
    });
    const v1 = cardJson('http://x').supportedInterfaces as Array<{ url: string; protocolBinding: string }>;
    expect(card.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.url} ${i.protocolVersion}`)).toEqual([
      ...v1.map((i) => `${i.protocolBinding} ${i.url} 1.0`),
      'GRPC x:50051 0.3',
    ]);
  });

  it('an unreachable host says so', async () => {
    const closed: Server = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(resolveAgentCard(`http://127.0.0.1:${port}`));
    expect(error.metadata.clientFailure).toBe('unreachable');
    expect(error.message).toBe(`Cannot reach http://127.0.0.1:${port}: connection refused (ECONNREFUSED)`);
  });

  it('a server that never answers the card GET fails within the timeout', async () => {
    server = await startFakeServer(() => undefined); // accepts, never answers
    const error = await failure(resolveAgentCard(server.url, { timeoutMs: 300 }));
    expect(error.code).toBe(A2AErrorCode.DeadlineExceeded);
    expect(error.metadata.clientFailure).toBe('timeout');
  });

  it('not a URL at all', async () => {
    const error = await failure(resolveAgentCard('localhost:8080'));
    expect(error.message).toMatch(/is not an http\(s\) URL|is not a URL/);
  });
});

describe('interface selection', () => {
  const card = validateAgentCard({
    ...cardJson('http://x'),
    supportedInterfaces: [
      { url: 'http://x/old', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: 'x:50051', protocolBinding: 'GRPC', protocolVersion: '1.0' },
      { url: 'ws://x/ws', protocolBinding: WEBSOCKET_BINDING, protocolVersion: '1.0' },
      { url: 'http://x/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: 'http://x/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
  });

  it("follows the server's order among the allowed v1.0 bindings; a v0.3 interface only when no v1.0 one is allowed", () => {
    expect(selectInterface(card, ['jsonrpc', 'rest']).agentInterface.url).toBe('http://x/rest');
    expect(selectInterface(card, ['jsonrpc']).agentInterface.url).toBe('http://x/rpc');
    expect(selectInterface(card, ['grpc', 'rest']).binding).toBe('grpc');
    expect(selectInterface(card, ['websocket']).agentInterface.url).toBe('ws://x/ws');
    const older = validateAgentCard({
      ...cardJson('http://x'),
      supportedInterfaces: [
        { url: 'http://x/rpc03', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
        { url: 'http://x/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
    });
    expect(selectInterface(older, ['jsonrpc', 'rest']).agentInterface.url).toBe('http://x/rest');
    expect(selectInterface(older, ['jsonrpc']).agentInterface).toMatchObject({ url: 'http://x/rpc03', protocolVersion: '0.3' });
  });

  it('no usable interface: the error lists what the card offers', () => {
    const other = validateAgentCard({
      ...cardJson('http://x'),
      supportedInterfaces: [
        { url: 'http://x', protocolBinding: 'JSONRPC', protocolVersion: '0.2' },
        { url: 'x:1', protocolBinding: 'GRPC', protocolVersion: '0.3' },
      ],
    });
    expect(() => selectInterface(other, ['jsonrpc', 'rest'])).toThrow(
      /offers JSONRPC \(0\.2\), GRPC \(0\.3\); none matches what this client may use \(JSONRPC, HTTP\+JSON, A2A 1\.0 or 0\.3\)/,
    );
  });

  it('a v0.3 card that prefers gRPC: without a gRPC transport, its JSON-RPC interface is used', () => {
    const v03 = validateAgentCard({
      name: 'old',
      url: 'x:50051',
      preferredTransport: 'GRPC',
      additionalInterfaces: [
        { url: 'x:50051', transport: 'GRPC' },
        { url: 'http://x/rpc', transport: 'JSONRPC' },
      ],
      capabilities: {},
    });
    expect(selectInterface(v03, ['grpc', 'jsonrpc']).agentInterface.url).toBe('x:50051');
    expect(selectInterface(v03, ['jsonrpc', 'rest']).agentInterface).toMatchObject({ url: 'http://x/rpc', protocolVersion: '0.3' });
  });

  it('protocolGeneration: 1.x and unset are v1.0, 0.3 and 0.3.x are v0.3, others unknown', () => {
    expect(['', '1.0', '1.2', undefined].map(protocolGeneration)).toEqual(['1.0', '1.0', '1.0', '1.0']);
    expect(['0.3', '0.3.0', '0.3.14'].map(protocolGeneration)).toEqual(['0.3', '0.3', '0.3']);
    expect(['0.2.5', '2.0', '0.30'].map(protocolGeneration)).toEqual([undefined, undefined, undefined]);
  });

  it('asking for gRPC without its transport points at the subpath export', () => {
    expect(() => new Client(card, { bindings: ['grpc'] })).toThrow(/@a2a-polyglot\/client\/grpc/);
  });
});
