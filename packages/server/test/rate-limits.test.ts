import { ApiKeyAuthenticator, RequestHandler, silentLogger } from '@a2a-polyglot/core';
import { waitFor } from '@a2a-polyglot/testing';
import { SUBPROTOCOL } from '@a2a-polyglot/websocket';
import { WebSocket } from 'ws';
import { createRateLimiter, type RateLimitOptions } from '../src/index.js';
import { Gates, rest, rpc, rpcStream, sendParams, startTestServer, testCard, scriptedAgent, type TestServer, V } from './helpers.js';

const KEY = { ...V, 'x-api-key': 'ka' };

/** A server whose handler has `limits` (API key `ka` is identity alice). */
async function limitedServer(limits: RateLimitOptions, websocket = false): Promise<TestServer> {
  const handler = new RequestHandler({
    card: testCard(),
    executor: scriptedAgent(new Gates()),
    authenticator: new ApiKeyAuthenticator({ keys: { ka: 'alice' } }),
    rateLimiter: createRateLimiter(limits),
    logger: silentLogger,
  });
  return startTestServer({ handler, websocket });
}

const RATE_LIMITED_INFO = expect.objectContaining({
  reason: 'RATE_LIMITED',
  domain: 'a2a-polyglot',
  metadata: expect.objectContaining({ retryAfterSeconds: expect.stringMatching(/^\d+$/) }),
});

describe('rate limits on the HTTP bindings', () => {
  let s: TestServer;
  afterEach(() => s.close());

  it('JSON-RPC: HTTP 429 with Retry-After and a JSON-RPC error body once the address budget is spent', async () => {
    s = await limitedServer({ perAddress: { points: 2, durationSeconds: 60 } });
    for (let i = 0; i < 2; i++) expect((await rpc(s.rpcUrl, 'SendMessage', sendParams('hi'), KEY)).status).toBe(200);
    const refused = await rpc(s.rpcUrl, 'SendMessage', sendParams('hi'), KEY);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.body).toMatchObject({ jsonrpc: '2.0', error: { code: -31430 } });
    expect(refused.body.error.data).toEqual([RATE_LIMITED_INFO]);
    // A streaming call is refused before any stream: the same plain answer, no SSE.
    const stream = await rpc(s.rpcUrl, 'SendStreamingMessage', sendParams('hi'), KEY);
    expect(stream.status).toBe(429);
    expect(stream.headers.get('content-type')).toMatch(/json/);
    expect(stream.body.error.code).toBe(-31430);
    // The v0.3 method names answer the same way (v0.3 column of the table).
    const v03 = await rpc(s.rpcUrl, 'tasks/get', { id: 'x' }, { 'x-api-key': 'ka' });
    expect(v03.status).toBe(429);
    expect(v03.body.error.code).toBe(-31430);
  });

  it('REST: HTTP 429 with Retry-After and a google.rpc.Status body once the identity budget is spent', async () => {
    s = await limitedServer({ perIdentity: { points: 1, durationSeconds: 60 } });
    expect((await rest(s.restUrl, 'GET', '/tasks', undefined, KEY)).status).toBe(200);
    const refused = await rest(s.restUrl, 'GET', '/tasks', undefined, KEY);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(refused.body.error.details).toEqual([
      expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', metadata: expect.objectContaining({ scope: 'identity' }) }),
    ]);
    expect(refused.body.error.details[0]).toEqual(RATE_LIMITED_INFO);
    // A2A v0.3 REST: the same status, the bare v0.3 error body.
    const v03 = await rest(s.restUrl, 'GET', '/v1/tasks/x', undefined, { 'x-api-key': 'ka' });
    expect(v03.status).toBe(429);
    expect(v03.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(v03.body.code).toBe(-31430);
  });

  it('JSON-RPC v0.3 streams: a rate-limit refusal is HTTP 429 with Retry-After, not an SSE error event', async () => {
    // The identity budget: spent in the call, after the body was decoded (the address budget
    // refuses before the method is even known).
    s = await limitedServer({ perIdentity: { points: 1, durationSeconds: 60 } });
    const v03 = { 'x-api-key': 'ka', 'a2a-version': '0.3' };
    const message = { kind: 'message', role: 'user', messageId: 'm-1', parts: [{ kind: 'text', text: 'hi' }] };
    expect((await rpc(s.rpcUrl, 'tasks/get', { id: 'x' }, v03)).body.error.code).toBe(-32001);
    for (const [method, params] of [
      ['message/stream', { message }],
      ['tasks/resubscribe', { id: 'x' }],
    ] as const) {
      const refused = await rpcStream(s.rpcUrl, method, params, v03);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused.headers.get('content-type')).toMatch(/json/);
      expect(((await refused.json()) as any).error).toMatchObject({ code: -31430, data: [expect.objectContaining({ reason: 'RATE_LIMITED' })] });
    }
    // As the 1.0 streams answer.
    const v1 = await rpcStream(s.rpcUrl, 'SendStreamingMessage', sendParams('hi'), { 'x-api-key': 'ka' });
    expect(v1.status).toBe(429);
    expect(v1.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('JSON-RPC batch: the refused entry gets the error, the batch keeps HTTP 200', async () => {
    s = await limitedServer({ perAddress: { points: 1, durationSeconds: 60 } });
    const res = await fetch(s.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...KEY },
      body: JSON.stringify([1, 2].map((id) => ({ jsonrpc: '2.0', id, method: 'ListTasks', params: {} }))),
    });
    expect(res.status).toBe(200);
    const [first, second] = ((await res.json()) as any[]).sort((a, b) => a.id - b.id);
    expect(first.result).toBeDefined();
    expect(second.error.code).toBe(-31430);
  });

  it('leaves card discovery unlimited', async () => {
    s = await limitedServer({ perAddress: { points: 1, durationSeconds: 60 } });
    await rpc(s.rpcUrl, 'ListTasks', {}, KEY);
    expect((await rpc(s.rpcUrl, 'ListTasks', {}, KEY)).status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await fetch(`${s.url}/.well-known/agent-card.json`)).status).toBe(200);
  });
});

describe('rate limits on the WebSocket binding', () => {
  let s: TestServer;
  afterEach(() => s.close());

  it('answers an error frame for the refused request and keeps the connection usable', async () => {
    s = await limitedServer({ perAddress: { points: 2, durationSeconds: 1 } }, true);
    const ws = new WebSocket(`${s.url.replace('http://', 'ws://')}/a2a/ws`, [SUBPROTOCOL], { headers: { 'A2A-Version': '1.0', 'x-api-key': 'ka' } });
    const frames = new Map<number, any>();
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if ('result' in frame || 'error' in frame) frames.set(frame.id, frame);
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    let id = 0;
    const call = async (method: string, params: unknown): Promise<any> => {
      const mine = ++id;
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: mine, method, params }));
      await waitFor(() => frames.has(mine));
      return frames.get(mine);
    };
    try {
      expect((await call('ListTasks', {})).result).toBeDefined();
      expect((await call('ListTasks', {})).result).toBeDefined();
      const refused = await call('ListTasks', {});
      expect(refused.error).toMatchObject({ code: -31430 });
      expect(refused.error.data).toEqual([RATE_LIMITED_INFO]);
      expect(ws.readyState).toBe(WebSocket.OPEN);
      // Once the window passes, the same socket is served again.
      await waitFor(async () => (await call('ListTasks', {})).result !== undefined, { timeoutMs: 5000 });
      expect(ws.readyState).toBe(WebSocket.OPEN);
    } finally {
      ws.close();
    }
  });
});
