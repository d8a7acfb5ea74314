/**
 * The address budget is spent when a request arrives, before its body is read, parsed or
 * validated: malformed, oversize and unknown requests cost their sender a point, and a client
 * over its budget is answered without the server reading what it sent.
 */
import { request as httpRequest } from 'node:http';
import { ApiKeyAuthenticator, RequestHandler, silentLogger } from '@a2a-polyglot/core';
import { waitFor } from '@a2a-polyglot/testing';
import { SUBPROTOCOL } from '@a2a-polyglot/websocket';
import { WebSocket } from 'ws';
import { createRateLimiter } from '../src/index.js';
import { Gates, postRaw, rest, rpc, rpcStream, startTestServer, testCard, scriptedAgent, type TestServer, V } from './helpers.js';

const KEY = { ...V, 'x-api-key': 'ka' };

/** A server whose address budget is `points` per minute (API key `ka` is identity alice). */
async function limitedServer(limits: { address?: number; identity?: number }, websocket = false): Promise<TestServer> {
  const handler = new RequestHandler({
    card: testCard(),
    executor: scriptedAgent(new Gates()),
    authenticator: new ApiKeyAuthenticator({ keys: { ka: 'alice' } }),
    rateLimiter: createRateLimiter({
      perAddress: limits.address === undefined ? undefined : { points: limits.address, durationSeconds: 60 },
      perIdentity: limits.identity === undefined ? undefined : { points: limits.identity, durationSeconds: 60 },
    }),
    logger: silentLogger,
  });
  return startTestServer({ handler, websocket });
}

/**
 * Sends the head of a POST announcing `declaredBytes` and only part of the body, then waits
 * for the answer: one given before the body is complete proves the server did not wait for it.
 */
function answerBeforeBody(url: string, declaredBytes: number): Promise<{ status: number; retryAfter: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(declaredBytes), ...KEY } });
    // A server that waits for the body never answers: fail plainly instead of at the test timeout.
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error('no answer while the body was incomplete'));
    }, 5000);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body });
        req.destroy();
      });
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.write('{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{"x":"');
    // The rest of the body is never sent.
  });
}

describe('the address point is spent on arrival, before the body', () => {
  let s: TestServer;
  afterEach(() => s.close());

  it('JSON-RPC: malformed bodies, unknown methods and wrong verbs spend it like good requests', async () => {
    s = await limitedServer({ address: 4 });
    expect((await postRaw(s.rpcUrl, '{"jsonrpc": "2.0", "id": 1, "method": ')).body.error.code).toBe(-32700);
    expect((await rpc(s.rpcUrl, 'NoSuchMethod', {}, KEY)).body.error.code).toBe(-32601);
    expect((await rpc(s.rpcUrl, 'GetTask', { id: 7 }, KEY)).body.error.code).toBe(-32602);
    expect((await fetch(s.rpcUrl, { headers: KEY })).status).toBe(405);
    const refused = await rpc(s.rpcUrl, 'ListTasks', {}, KEY);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -31430 } });
  });

  it('JSON-RPC: a client over its budget is answered 429 without the server waiting for its body', async () => {
    s = await limitedServer({ address: 1 });
    expect((await rpc(s.rpcUrl, 'ListTasks', {}, KEY)).status).toBe(200);
    const refused = await answerBeforeBody(s.rpcUrl, 3 * 1024 * 1024);
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toMatch(/^\d+$/);
    expect(JSON.parse(refused.body).error.code).toBe(-31430);
  });

  it('JSON-RPC: one request costs one point, a batch one per entry', async () => {
    s = await limitedServer({ address: 3 });
    expect((await rpc(s.rpcUrl, 'ListTasks', {}, KEY)).status).toBe(200);
    const batch = await postRaw(s.rpcUrl, JSON.stringify([1, 2].map((id) => ({ jsonrpc: '2.0', id, method: 'ListTasks', params: {} }))), {
      'content-type': 'application/json',
      ...KEY,
    });
    expect(batch.body.map((r: any) => r.result !== undefined)).toEqual([true, true]);
    expect((await rpc(s.rpcUrl, 'ListTasks', {}, KEY)).status).toBe(429);
  });

  it('REST (1.0 and 0.3): unknown paths and malformed bodies spend it; the refusal needs no body either', async () => {
    s = await limitedServer({ address: 4 });
    expect((await rest(s.restUrl, 'GET', '/no/such/route', undefined, KEY)).status).toBe(404);
    expect((await rest(s.restUrl, 'GET', '/v1/nope', undefined, { 'x-api-key': 'ka' })).status).toBe(404);
    const malformed = await fetch(`${s.restUrl}/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...KEY },
      body: '{"message": ',
    });
    expect(malformed.status).toBe(400);
    expect((await rest(s.restUrl, 'POST', '/message:send', { message: { role: 'nobody' } }, KEY)).status).toBe(400);
    const refused = await rest(s.restUrl, 'GET', '/tasks', undefined, KEY);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    const unread = await answerBeforeBody(`${s.restUrl}/message:send`, 3 * 1024 * 1024);
    expect(unread.status).toBe(429);
  });

  it('a request spends one address point (not one on arrival and one in the call)', async () => {
    s = await limitedServer({ address: 2 });
    expect((await rest(s.restUrl, 'GET', '/tasks', undefined, KEY)).status).toBe(200);
    expect((await rpc(s.rpcUrl, 'ListTasks', {}, KEY)).status).toBe(200);
    expect((await rpc(s.rpcUrl, 'ListTasks', {}, KEY)).status).toBe(429);
  });

  it('WebSocket: every frame but cancelStream spends it, invalid ones too; the refusal carries the request id', async () => {
    s = await limitedServer({ address: 3 }, true);
    const ws = new WebSocket(`${s.url.replace('http://', 'ws://')}/a2a/ws`, [SUBPROTOCOL], { headers: KEY });
    const frames: any[] = [];
    ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const answerTo = async (id: unknown): Promise<any> => {
      await waitFor(() => frames.some((f) => f.id === id && ('result' in f || 'error' in f)));
      return frames.find((f) => f.id === id && ('result' in f || 'error' in f));
    };
    try {
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'NoSuchMethod', params: {} }));
      expect((await answerTo(1)).error.code).toBe(-32601);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id: 7 } }));
      expect((await answerTo(2)).error.code).toBe(-32602);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 3, serviceParams: 'not an object', method: 'ListTasks', params: {} }));
      expect((await answerTo(3)).error.code).toBe(-32600);
      // cancelStream is free: it only stops delivery (here of nothing).
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 9, cancelStream: true }));
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ListTasks', params: {} }));
      const refused = await answerTo(4);
      expect(refused.error.code).toBe(-31430);
      expect(refused.error.data).toEqual([expect.objectContaining({ reason: 'RATE_LIMITED', metadata: expect.objectContaining({ scope: 'address' }) })]);
      expect(ws.readyState).toBe(WebSocket.OPEN);
    } finally {
      ws.close();
    }
  });

  it('the identity budget is still spent after authentication, once per call', async () => {
    s = await limitedServer({ identity: 1 });
    // Unauthenticated and malformed requests do not reach the identity budget.
    expect((await rpc(s.rpcUrl, 'ListTasks', {}, V)).status).toBe(401);
    expect((await postRaw(s.rpcUrl, '{', { 'content-type': 'application/json', ...KEY })).body.error.code).toBe(-32700);
    expect((await rpc(s.rpcUrl, 'ListTasks', {}, KEY)).status).toBe(200);
    const refused = await rpcStream(s.rpcUrl, 'SendStreamingMessage', { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } }, KEY);
    expect(refused.status).toBe(429);
  });
});
