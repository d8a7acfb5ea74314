/**
 * Client behaviour against servers the test scripts: servers without event numbers, streams
 * that end without a final state, capabilities a server claims but lacks, tenants, auth
 * hooks, interceptors and retries.
 */
import { type A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { TaskState } from '@a2a-polyglot/model';
import type { ServerResponse } from 'node:http';
import { Client, textMessage, validateAgentCard, type CallInfo, type CallOutcome, type ClientEvent } from '../src/index.js';
import { cardJson, sendJson, sse, startFakeServer, type FakeServer, type SeenRequest } from './fake-server.js';
import { collect } from './helpers.js';

const TASK = 't-1';
const CTX = 'c-1';
const task = (state: string, artifacts: unknown[] = [], ts = '2026-01-01T00:00:00.000Z') => ({
  id: TASK,
  contextId: CTX,
  status: { state, timestamp: ts },
  artifacts,
});
const status = (state: string, ts: string) => ({ statusUpdate: { taskId: TASK, contextId: CTX, status: { state, timestamp: ts } } });
const chunk = (id: string, text: string) => ({
  artifactUpdate: { taskId: TASK, contextId: CTX, artifact: { artifactId: id, parts: [{ text }] }, lastChunk: true },
});
const rpcResult = (id: unknown, result: unknown) => ({ jsonrpc: '2.0', id, result });
const rpcError = (id: unknown, code: number, message: string, reason?: string) => ({
  jsonrpc: '2.0',
  id,
  error: { code, message, ...(reason ? { data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' }] } : {}) },
});

type RpcHandler = (req: SeenRequest, res: ServerResponse, call: number) => void;

/** A JSON-RPC fake: the card at the well-known path, `handle` for every call at /rpc. */
async function rpcServer(handle: RpcHandler, cardExtra: Record<string, unknown> = {}, tenant = ''): Promise<FakeServer> {
  let calls = 0;
  let base = '';
  const server = await startFakeServer((req, res) => {
    if (req.url === '/.well-known/agent-card.json') return sendJson(res, 200, cardJson(base, cardExtra, tenant));
    return handle(req, res, ++calls);
  });
  base = server.url;
  return server;
}

function stateOf(e: ClientEvent): string | undefined {
  const p = e.event.payload;
  return p?.$case === 'task' || p?.$case === 'statusUpdate' ? TaskState[p.value.status!.state] : undefined;
}

describe('client behaviour against scripted servers', () => {
  let server: FakeServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('without event numbers: resubscribes afresh and drops the repeated snapshot', async () => {
    server = await rpcServer((req, res, call) => {
      const s = sse(res);
      if (call === 1) {
        s.event(rpcResult(req.json.id, { task: task('TASK_STATE_SUBMITTED') }));
        s.event(rpcResult(req.json.id, status('TASK_STATE_WORKING', '2026-01-01T00:00:01.000Z')));
        s.event(rpcResult(req.json.id, chunk('a', 'one')));
        return s.cut();
      }
      // SubscribeToTask without Last-Event-ID: the snapshot (nothing new), then the rest.
      s.event(rpcResult(req.json.id, { task: task('TASK_STATE_WORKING', [{ artifactId: 'a', parts: [{ text: 'one' }] }], '2026-01-01T00:00:01.000Z') }));
      s.event(rpcResult(req.json.id, chunk('b', 'two')));
      s.event(rpcResult(req.json.id, status('TASK_STATE_COMPLETED', '2026-01-01T00:00:02.000Z')));
      s.end();
    });
    const client = await Client.connect(server.url, { bindings: ['jsonrpc'], resume: { initialDelayMs: 10, maxDelayMs: 20 } });
    const stream = client.sendStreamingMessage({ message: textMessage('go') });
    const events = await collect(stream);
    expect(events.map((e) => e.event.payload?.$case)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(events.every((e) => e.seq === undefined)).toBe(true);
    expect(stream.resumes).toBe(1);
    expect(stream.end).toBe('terminal');
    const resubscribe = server.requests.at(-1)!;
    expect(resubscribe.json.method).toBe('SubscribeToTask');
    expect(resubscribe.json.params).toEqual({ id: TASK });
    expect(resubscribe.headers['last-event-id']).toBeUndefined();
  });

  it('a task that ended while we were away: the final Task from GetTask, then the end', async () => {
    server = await rpcServer((req, res, call) => {
      if (call === 1) {
        const s = sse(res);
        s.event(rpcResult(req.json.id, { task: task('TASK_STATE_WORKING') }));
        return s.cut();
      }
      if (req.json.method === 'SubscribeToTask') return sendJson(res, 200, rpcError(req.json.id, -32004, 'Task is terminal', 'UNSUPPORTED_OPERATION'));
      return sendJson(
        res,
        200,
        rpcResult(req.json.id, task('TASK_STATE_COMPLETED', [{ artifactId: 'a', parts: [{ text: 'all' }] }], '2026-01-01T00:00:05.000Z')),
      );
    });
    const client = await Client.connect(server.url, { bindings: ['jsonrpc'], resume: { initialDelayMs: 10, maxDelayMs: 20 } });
    const stream = client.sendStreamingMessage({ message: textMessage('go') });
    const events = await collect(stream);
    expect(events.map(stateOf)).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
    expect(stream.end).toBe('terminal');
  });

  it('a stream that always ends without a final state gives up with a clear "cut" error', async () => {
    server = await rpcServer((req, res) => {
      const s = sse(res);
      s.event(rpcResult(req.json.id, { task: task('TASK_STATE_WORKING') }));
      s.end(); // a clean close, but the task is not settled
    });
    const client = await Client.connect(server.url, { bindings: ['jsonrpc'], resume: { initialDelayMs: 5, maxDelayMs: 10, attempts: 3 } });
    const stream = client.sendStreamingMessage({ message: textMessage('go') });
    const error = await collect(stream).then(
      () => undefined,
      (e: unknown) => e as A2AError,
    );
    expect(error?.metadata.clientFailure).toBe('cut');
    expect(error?.message).toBe('The stream closed before the task reached a final or interrupted state (gave up after 3 resubscribe attempts)');
    expect(stream.end).toBeUndefined();
  });

  it('a cut before any event named the task is an error, not a resubscribe', async () => {
    server = await rpcServer((_req, res) => sse(res).cut());
    const client = await Client.connect(server.url, { bindings: ['jsonrpc'] });
    const error = await collect(client.sendStreamingMessage({ message: textMessage('go') })).then(
      () => undefined,
      (e: unknown) => e as A2AError,
    );
    expect(error?.metadata.clientFailure).toBe('cut');
    expect(error?.message).toMatch(/no event named the task yet, so it cannot be resumed/);
    expect(server.requests.filter((r) => r.json?.method === 'SubscribeToTask')).toHaveLength(0);
  });

  it('claims streaming but answers the stream with plain JSON: an error, no hang', async () => {
    server = await rpcServer((req, res) => sendJson(res, 200, rpcResult(req.json.id, { task: task('TASK_STATE_COMPLETED') })));
    const client = await Client.connect(server.url, { bindings: ['jsonrpc'] });
    const error = await collect(client.sendStreamingMessage({ message: textMessage('go') })).then(
      () => undefined,
      (e: unknown) => e as A2AError,
    );
    expect(error?.code).toBe(A2AErrorCode.InvalidAgentResponse);
    expect(error?.message).toMatch(/answered application\/json instead of an event stream/);
  });

  it("claims streaming but refuses it: the server's UnsupportedOperation, as sent", async () => {
    server = await rpcServer((req, res) => sendJson(res, 200, rpcError(req.json.id, -32004, 'Streaming is not supported', 'UNSUPPORTED_OPERATION')));
    const client = await Client.connect(server.url, { bindings: ['jsonrpc'] });
    const error = await collect(client.sendStreamingMessage({ message: textMessage('go') })).then(
      () => undefined,
      (e: unknown) => e as A2AError,
    );
    expect(error?.code).toBe(A2AErrorCode.UnsupportedOperation);
    expect(error?.message).toBe('Streaming is not supported');
  });

  it('a card that says streaming is off: refused locally, before any request', async () => {
    server = await rpcServer(() => undefined, { capabilities: { streaming: false } });
    const client = await Client.connect(server.url, { bindings: ['jsonrpc'] });
    const error = await collect(client.sendStreamingMessage({ message: textMessage('go') })).then(
      () => undefined,
      (e: unknown) => e as A2AError,
    );
    expect(error?.code).toBe(A2AErrorCode.UnsupportedOperation);
    expect(server.requests.filter((r) => r.url === '/rpc')).toHaveLength(0);
  });

  it('a JSON-RPC endpoint that serves HTML: "not an A2A server", not a crash', async () => {
    server = await rpcServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not Found</h1>');
    });
    const client = await Client.connect(server.url, { bindings: ['jsonrpc'] });
    const error = (await client.getTask({ id: 'x' }).catch((e: unknown) => e)) as A2AError;
    expect(error.metadata.clientFailure).toBe('not-a2a');
    expect(error.message).toMatch(/answered HTTP 404 \(text\/html: "<h1>Not Found<\/h1>"\), not a JSON-RPC response/);
  });

  it('tolerates a bare Task as the SendMessage result', async () => {
    server = await rpcServer((req, res) => sendJson(res, 200, rpcResult(req.json.id, task('TASK_STATE_COMPLETED'))));
    const client = await Client.connect(server.url, { bindings: ['jsonrpc'] });
    const result = await client.sendMessage({ message: textMessage('go') });
    expect(result.payload?.$case).toBe('task');
  });

  it("copies the interface's tenant into every request (JSON-RPC params, REST path)", async () => {
    let base = '';
    server = await startFakeServer((req, res) => {
      if (req.url === '/.well-known/agent-card.json') return sendJson(res, 200, cardJson(base, {}, 'acme'));
      if (req.url === '/rpc') return sendJson(res, 200, rpcResult(req.json.id, task('TASK_STATE_WORKING')));
      return sendJson(res, 200, task('TASK_STATE_WORKING'), 'application/a2a+json');
    });
    base = server.url;
    const rpc = await Client.connect(server.url, { bindings: ['jsonrpc'] });
    await rpc.getTask({ id: TASK });
    expect(server.requests.at(-1)!.json.params).toEqual({ tenant: 'acme', id: TASK });
    const rest = await Client.connect(server.url, { bindings: ['rest'] });
    await rest.getTask({ id: TASK, historyLength: 2 });
    expect(server.requests.at(-1)!.url).toBe(`/rest/acme/tasks/${TASK}?historyLength=2`);
    expect(server.requests.at(-1)!.headers['a2a-version']).toBe('1.0');
  });

  it('auth hooks and interceptors run around every call, in order, with the outcome', async () => {
    server = await rpcServer((req, res) =>
      sendJson(
        res,
        200,
        req.json.method === 'GetTask' ? rpcResult(req.json.id, task('TASK_STATE_WORKING')) : rpcError(req.json.id, -32001, 'nope', 'TASK_NOT_FOUND'),
      ),
    );
    const log: string[] = [];
    let token = 0;
    const client = await Client.connect(server.url, {
      bindings: ['jsonrpc'],
      bearerToken: () => `tok-${++token}`,
      apiKey: 'k',
      headers: { 'X-Static': 's' },
      interceptors: [
        {
          before: (call: CallInfo) => void log.push(`before ${call.operation} ${call.headers.Authorization}`),
          after: (call: CallInfo, outcome: CallOutcome) => void log.push(`after ${call.operation} ${outcome.error ? outcome.error.code : 'ok'}`),
        },
      ],
    });
    await client.getTask({ id: TASK });
    await client.cancelTask({ id: TASK }).catch(() => undefined);
    expect(log).toEqual(['before GetTask Bearer tok-1', 'after GetTask ok', 'before CancelTask Bearer tok-2', 'after CancelTask TASK_NOT_FOUND']);
    const seen = server.requests.filter((r) => r.url === '/rpc');
    expect(seen[0]!.headers.authorization).toBe('Bearer tok-1');
    expect(seen[0]!.headers['x-api-key']).toBe('k');
    expect(seen[0]!.headers['x-static']).toBe('s');
    expect(server.requests[0]!.headers['x-static']).toBe('s'); // the card GET too
  });

  it('retries safe reads on Unavailable, never SendMessage', async () => {
    server = await rpcServer((req, res, call) => {
      if (call <= 1 || req.json.method === 'SendMessage') return sendJson(res, 503, { error: { code: 503, status: 'UNAVAILABLE', message: 'busy' } });
      return sendJson(res, 200, rpcResult(req.json.id, task('TASK_STATE_WORKING')));
    });
    const client = await Client.connect(server.url, { bindings: ['jsonrpc'], retry: { initialDelayMs: 5, maxDelayMs: 10 } });
    const got = await client.getTask({ id: TASK });
    expect(got.id).toBe(TASK);
    const before = server.requests.length;
    const error = (await client.sendMessage({ message: textMessage('x') }).catch((e: unknown) => e)) as A2AError;
    expect(error.code).toBe(A2AErrorCode.Unavailable);
    expect(server.requests.length - before).toBe(1);
  });

  it('with retrySends, retries SendMessage on Unavailable keeping its messageId (filled in when missing)', async () => {
    const fake = await rpcServer((req, res, call) => {
      if (call <= 2) return sendJson(res, 503, { error: { code: 503, status: 'UNAVAILABLE', message: 'busy' } });
      return sendJson(res, 200, rpcResult(req.json.id, { task: task('TASK_STATE_COMPLETED') }));
    });
    server = fake;
    const client = await Client.connect(fake.url, { bindings: ['jsonrpc'], retrySends: true, retry: { attempts: 3, initialDelayMs: 5, maxDelayMs: 10 } });
    const sent = () => fake.requests.filter((r) => r.url === '/rpc').map((r) => r.json.params.message.messageId as string);
    const res = await client.sendMessage({ message: textMessage('x', { messageId: 'm-keep' }) });
    expect(res.payload?.$case).toBe('task');
    expect(sent()).toEqual(['m-keep', 'm-keep', 'm-keep']);

    const before = sent().length;
    await client.sendMessage({ message: { role: textMessage('y').role, parts: textMessage('y').parts } });
    const ids = sent().slice(before);
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('with retrySends, still refuses to retry what is no transient failure', async () => {
    server = await rpcServer((req, res) => sendJson(res, 200, rpcError(req.json.id, -32602, 'bad')));
    const client = await Client.connect(server.url, { bindings: ['jsonrpc'], retrySends: true, retry: { initialDelayMs: 5, maxDelayMs: 10 } });
    const error = (await client.sendMessage({ message: textMessage('x') }).catch((e: unknown) => e)) as A2AError;
    expect(error.code).toBe(A2AErrorCode.InvalidParams);
    expect(server.requests.filter((r) => r.url === '/rpc')).toHaveLength(1);
  });

  it('a card validated from JSON builds a client without any network', () => {
    const card = validateAgentCard(cardJson('http://127.0.0.1:9'));
    expect(new Client(card).binding).toBe('jsonrpc');
  });
});
