/**
 * The fetch-standard handler (`createA2AFetchHandler`), called in process with `new Request`
 * (no socket): the card, JSON-RPC and REST unary calls, a JSON-RPC stream read from the
 * Response body to its final event, a v0.3 method, the body limit, and an unknown path.
 */
import { RequestHandler } from '@a2a-polyglot/core';
import { Gates, recordingLogger, scriptedAgent, waitFor } from '@a2a-polyglot/testing';
import { createA2AFetchHandler } from '../src/index.js';
import { readSse, sendParams, testCard, V } from './helpers.js';

const ORIGIN = 'http://agents.example';
let nextId = 1;

describe('createA2AFetchHandler', () => {
  const gates = new Gates();
  const handler = new RequestHandler({ card: testCard(), executor: scriptedAgent(gates) });
  const shutdown = new AbortController();
  const fetchHandler = createA2AFetchHandler({ handler, mountPath: '/agent', maxBodyBytes: 2048, sseHeartbeatMs: 0, shutdownSignal: shutdown.signal });
  afterAll(async () => {
    gates.openAll();
    shutdown.abort();
    await handler.shutdown(100);
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetchHandler(
      new Request(`${ORIGIN}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...V, ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );
  const rpcBody = (method: string, params: unknown) => ({ jsonrpc: '2.0', id: nextId++, method, params });

  it('serves the card with URLs under the request origin and the mount path, and revalidates it', async () => {
    const res = await fetchHandler(new Request(`${ORIGIN}/agent/.well-known/agent-card.json`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('vary')).toBe('Host, A2A-Version');
    const card: any = await res.json();
    const urls = card.supportedInterfaces.map((i: any) => `${i.protocolBinding} ${i.url}`);
    expect(urls).toContain(`JSONRPC ${ORIGIN}/agent/a2a/rpc`);
    expect(urls).toContain(`HTTP+JSON ${ORIGIN}/agent/a2a`);
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const again = await fetchHandler(new Request(`${ORIGIN}/agent/.well-known/agent-card.json`, { headers: { 'if-none-match': etag! } }));
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('answers a JSON-RPC SendMessage', async () => {
    const res = await post('/agent/a2a/rpc', rpcBody('SendMessage', sendParams('hello fetch')));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body: any = await res.json();
    expect(body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(body.result.task.artifacts[0].parts[0].text).toBe('echo: hello fetch');
  });

  it('answers a REST message:send', async () => {
    const res = await post('/agent/a2a/message:send', sendParams('hello rest'), { 'content-type': 'application/a2a+json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/a2a+json');
    const body: any = await res.json();
    expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
    const got = await fetchHandler(new Request(`${ORIGIN}/agent/a2a/tasks/${body.task.id}?historyLength=1`, { headers: V }));
    expect(got.status).toBe(200);
    expect(((await got.json()) as any).id).toBe(body.task.id);
  });

  it('streams a JSON-RPC SendStreamingMessage as SSE from the Response body to the final event', async () => {
    const res = await post('/agent/a2a/rpc', rpcBody('SendStreamingMessage', sendParams('steps 3')), { accept: 'text/event-stream' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const read = await readSse(res);
    const frames = read.events.map((e) => JSON.parse(e.data));
    expect(frames.length).toBeGreaterThanOrEqual(4);
    expect(frames.every((f) => f.jsonrpc === '2.0' && f.result)).toBe(true);
    const last = frames.at(-1).result;
    expect(last.statusUpdate?.status.state ?? last.task?.status.state).toBe('TASK_STATE_COMPLETED');
    expect(read.events.slice(1).every((e) => e.id !== undefined)).toBe(true);
  });

  it('serves the v0.3 method names on the same URL', async () => {
    const params = { message: { kind: 'message', role: 'user', messageId: `m-v03-${nextId++}`, parts: [{ kind: 'text', text: 'old' }] } };
    const res = await fetchHandler(
      new Request(`${ORIGIN}/agent/a2a/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(rpcBody('message/send', params)),
      }),
    );
    const body: any = await res.json();
    expect(body.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
  });

  it('refuses an oversized body with the binding error (413), Content-Length or not', async () => {
    const big = sendParams('x'.repeat(4096));
    const rpcRes = await post('/agent/a2a/rpc', rpcBody('SendMessage', big));
    expect(rpcRes.status).toBe(413);
    expect(((await rpcRes.json()) as any).error.data[0].reason).toBe('PAYLOAD_TOO_LARGE');
    const restRes = await post('/agent/a2a/message:send', big);
    expect(restRes.status).toBe(413);
    const restBody: any = await restRes.json();
    expect(restBody.error).toMatchObject({ code: 413 });
    expect(restBody.error.details[0].reason).toBe('PAYLOAD_TOO_LARGE');
    // A streamed body (no Content-Length): the limit trips while reading.
    const text = new TextEncoder().encode(JSON.stringify(rpcBody('SendMessage', big)));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < text.length; i += 1000) controller.enqueue(text.slice(i, i + 1000));
        controller.close();
      },
    });
    const chunked = await fetchHandler(
      new Request(`${ORIGIN}/agent/a2a/rpc`, { method: 'POST', headers: { 'content-type': 'application/json', ...V }, body, duplex: 'half' } as RequestInit),
    );
    expect(chunked.status).toBe(413);
  });

  it('answers an unknown path with a 404 JSON error', async () => {
    const res = await fetchHandler(new Request(`${ORIGIN}/elsewhere`));
    expect(res.status).toBe(404);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const body: any = await res.json();
    expect(body.error.message).toMatch(/Nothing is served at \/elsewhere/);
  });
});

describe('createA2AFetchHandler SSE delivery', () => {
  const gates = new Gates();
  const logger = recordingLogger();
  const handler = new RequestHandler({ card: testCard(), executor: scriptedAgent(gates) });
  const fetchHandler = createA2AFetchHandler({ handler, sseHeartbeatMs: 30, sseStallTimeoutMs: 100, logger });
  afterAll(async () => {
    gates.openAll();
    await handler.shutdown(100);
  });
  const openStream = (text: string) =>
    fetchHandler(
      new Request(`${ORIGIN}/a2a/message:stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...V },
        body: JSON.stringify(sendParams(text)),
      }),
    );

  it('pings a quiet stream; the task goes on after the reader cancels the body', async () => {
    const res = await openStream('gate hb');
    const read = await readSse(res, (r) => r.comments.includes('ping'));
    expect(read.comments).toContain('ping');
    expect(JSON.parse(read.events[0]!.data).task.id).toBeDefined();
    const taskId = JSON.parse(read.events[0]!.data).task.id as string;
    gates.open('hb');
    await waitFor(async () => {
      const got: any = await (await fetchHandler(new Request(`${ORIGIN}/a2a/tasks/${taskId}`, { headers: V }))).json();
      return got.status.state === 'TASK_STATE_COMPLETED';
    });
  });

  it('ends a stream whose consumer stops pulling after the stall timeout', async () => {
    const res = await openStream('burst 3 stall');
    // Nothing is read: the first chunk stays queued, and no pull comes.
    await waitFor(() => logger.lines.some((l) => l.msg === 'SSE stream ended: the client stopped reading'), { what: 'the stall warning' });
    await expect(res.text()).rejects.toThrow(/stalled/);
    gates.open('stall');
  });
});
