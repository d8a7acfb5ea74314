/** Card discovery and validation: the failures a user meets first, each with one clear message. */
import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cardCandidates, Client, resolveAgentCard, selectInterface, validateAgentCard, WEBSOCKET_BINDING } from '../src/index.js';
import { cardJson, sendJson, startFakeServer, type FakeServer } from './fake-server.js';

async function failure(promise: Promise<unknown>): Promise<A2AError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
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
    server = await startFakeServer((req, res) => (req.url === '/.well-known/agent-card.json' ? sendJson(res, 200, cardJson('http://x')) : sendJson(res, 404, {})));
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
    expect(cardCandidates('http://h:1/a2a/')).toEqual(['http://h:1/a2a/.well-known/agent-card.json', 'http://h:1/.well-known/agent-card.json', 'http://h:1/.well-known/agent.json']);
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

  it('a v0.3 card is recognised as such', () => {
    const error = (() => {
      try {
        validateAgentCard({ name: 'old', url: 'http://x/rpc', preferredTransport: 'JSONRPC', protocolVersion: '0.3.0', capabilities: {} });
      } catch (e) {
        return e as A2AError;
      }
      return undefined;
    })();
    expect(error?.message).toMatch(/A2A v0\.3-style card \(protocolVersion 0\.3\.0/);
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

  it("follows the server's order among the allowed bindings and skips v0.3 interfaces", () => {
    expect(selectInterface(card, ['jsonrpc', 'rest']).agentInterface.url).toBe('http://x/rest');
    expect(selectInterface(card, ['jsonrpc']).agentInterface.url).toBe('http://x/rpc');
    expect(selectInterface(card, ['grpc', 'rest']).binding).toBe('grpc');
    expect(selectInterface(card, ['websocket']).agentInterface.url).toBe('ws://x/ws');
  });

  it('no usable interface: the error lists what the card offers', () => {
    const only03 = validateAgentCard({ ...cardJson('http://x'), supportedInterfaces: [{ url: 'http://x', protocolBinding: 'JSONRPC', protocolVersion: '0.3' }] });
    expect(() => selectInterface(only03, ['jsonrpc', 'rest'])).toThrow(/offers JSONRPC \(0\.3\); none matches what this client may use \(JSONRPC, HTTP\+JSON, A2A 1\.0\)/);
  });

  it('asking for gRPC without its transport points at the subpath export', () => {
    expect(() => new Client(card, { bindings: ['grpc'] })).toThrow(/@a2a-polyglot\/client\/grpc/);
  });
});
