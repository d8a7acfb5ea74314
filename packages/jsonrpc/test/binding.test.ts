/**
 * The JSON-RPC binding as a client sees it (statuses, headers, bodies, SSE frames), called
 * in-process through `createJsonRpcExchangeHandler` (see `jsonRpcEndpoint`): no socket. What
 * only the node listener does (reading bodies off the socket) is tested in packages/server.
 */
import { eventStreamFrom, interceptOperation, RequestHandler } from '@a2a-polyglot/core';
import {
  bindingTestCard,
  failsAfterFirstEvent,
  Gates,
  readSseEvents as readSse,
  recordingLogger,
  scriptedAgent,
  sendMessageJson,
  TEST_EXTENSION,
} from '@a2a-polyglot/testing';
import { type JsonRpcEndpoint, jsonRpcEndpoint, RPC_URL, V } from './helpers.js';

const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';
const BAD_REQUEST = 'type.googleapis.com/google.rpc.BadRequest';

describe('JSON-RPC binding over HTTP, in-process', () => {
  let s: JsonRpcEndpoint;
  beforeAll(() => {
    s = jsonRpcEndpoint();
  });
  afterAll(() => s.close());

  async function createTask(text = 'hello'): Promise<any> {
    const res = await s.rpc('SendMessage', sendMessageJson(text));
    expect(res.body.result.task).toBeDefined();
    return res.body.result.task;
  }

  describe('every operation', () => {
    it('SendMessage answers with the wrapped completed task', async () => {
      const res = await s.rpc('SendMessage', sendMessageJson('hello'));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body.jsonrpc).toBe('2.0');
      const task = res.body.result.task;
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task.artifacts[0].parts[0].text).toBe('echo: hello');
      expect(Object.keys(res.body.result)).toEqual(['task']);
    });

    it('SendMessage answers a direct reply with the wrapped message', async () => {
      const res = await s.rpc('SendMessage', sendMessageJson('echo x'));
      expect(res.body.result.message.role).toBe('ROLE_AGENT');
      expect(res.body.result.message.parts[0].text).toBe('echo x');
    });

    it('GetTask returns the bare task and honours historyLength', async () => {
      const task = await createTask();
      const res = await s.rpc('GetTask', { id: task.id, historyLength: 0 });
      expect(res.body.result.id).toBe(task.id);
      expect(res.body.result.history).toBeUndefined();
    });

    it('ListTasks always carries nextPageToken, pageSize and totalSize', async () => {
      await createTask();
      const res = await s.rpc('ListTasks', { pageSize: 2 });
      expect(res.body.result.tasks.length).toBeLessThanOrEqual(2);
      expect(res.body.result).toHaveProperty('nextPageToken');
      expect(res.body.result.pageSize).toBe(2);
      expect(typeof res.body.result.totalSize).toBe('number');
    });

    it('CancelTask cancels a working task; a second cancel is TaskNotCancelable', async () => {
      const sent = await s.rpc('SendMessage', sendMessageJson('gate g5', {}, { returnImmediately: true }));
      const id = sent.body.result.task.id;
      const res = await s.rpc('CancelTask', { id });
      expect(res.body.result.status.state).toBe('TASK_STATE_CANCELED');
      const again = await s.rpc('CancelTask', { id });
      expect(again.status).toBe(200);
      expect(again.body.error.code).toBe(-32002);
      expect(again.body.error.data[0]).toMatchObject({ '@type': ERROR_INFO, reason: 'TASK_NOT_CANCELABLE', domain: 'a2a-protocol.org' });
    });

    it('push notification configs: create, get, list, delete (result null)', async () => {
      const task = await createTask();
      const created = await s.rpc('CreateTaskPushNotificationConfig', { taskId: task.id, url: 'http://127.0.0.1:9/hook', token: 't' });
      const config = created.body.result;
      expect(config.id).toBeTruthy();
      expect(config.taskId).toBe(task.id);
      const got = await s.rpc('GetTaskPushNotificationConfig', { taskId: task.id, id: config.id });
      expect(got.body.result.url).toBe('http://127.0.0.1:9/hook');
      const list = await s.rpc('ListTaskPushNotificationConfigs', { taskId: task.id });
      expect(list.body.result.configs.map((c: any) => c.id)).toEqual([config.id]);
      const deleted = await s.rpc('DeleteTaskPushNotificationConfig', { taskId: task.id, id: config.id });
      expect(deleted.body).toEqual({ jsonrpc: '2.0', id: deleted.body.id, result: null });
      const missing = await s.rpc('GetTaskPushNotificationConfig', { taskId: task.id, id: config.id });
      expect(missing.body.error.code).toBe(-32001);
    });

    it('GetExtendedAgentCard works without params', async () => {
      const res = await s.rpc('GetExtendedAgentCard');
      expect(res.body.result.name).toBe('extended test agent');
    });

    it('SendStreamingMessage streams whole JSON-RPC responses with id: seq', async () => {
      const res = await s.rpcStream('SendStreamingMessage', sendMessageJson('hello'));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('x-accel-buffering')).toBe('no');
      const { events } = await readSse(res);
      const bodies = events.map((e) => JSON.parse(e.data));
      expect(events.map((e) => e.id)).toEqual(['1', '2', '3', '4']);
      const ids = new Set(bodies.map((b) => b.id));
      expect(ids.size).toBe(1);
      expect(bodies.every((b) => b.jsonrpc === '2.0' && b.result)).toBe(true);
      expect(bodies.map((b) => Object.keys(b.result)[0])).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
      expect(bodies[3].result.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
      expect(bodies[3].result.statusUpdate).not.toHaveProperty('final');
    });

    it('a message-only stream is one event without an id line', async () => {
      const { events } = await readSse(await s.rpcStream('SendStreamingMessage', sendMessageJson('echo')));
      expect(events).toHaveLength(1);
      expect(events[0]!.id).toBeUndefined();
      expect(JSON.parse(events[0]!.data).result.message.parts[0].text).toBe('echo');
    });

    it('SubscribeToTask sends the task snapshot first, then live events', async () => {
      const sent = await s.rpc('SendMessage', sendMessageJson('gate g10', {}, { returnImmediately: true }));
      const id = sent.body.result.task.id;
      const res = await s.rpcStream('SubscribeToTask', { id });
      // Live events are released once the snapshot arrived.
      const { events } = await readSse(res, (read) => (read.events.length === 1 && s.gates.open('g10'), false));
      const bodies = events.map((e) => JSON.parse(e.data));
      expect(Object.keys(bodies[0].result)).toEqual(['task']);
      expect(bodies[bodies.length - 1].result.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
      const seqs = events.map((e) => Number(e.id));
      expect(seqs.every((n, i) => i === 0 || n === seqs[i - 1]! + 1)).toBe(true);
    });

    it('SubscribeToTask with Last-Event-ID resumes right after that event', async () => {
      const full = await readSse(await s.rpcStream('SendStreamingMessage', sendMessageJson('hello')));
      const taskId = JSON.parse(full.events[0]!.data).result.task.id;
      const resumed = await readSse(await s.rpcStream('SubscribeToTask', { id: taskId }, { 'last-event-id': '2' }));
      expect(resumed.events.map((e) => e.id)).toEqual(['3', '4']);
      expect(resumed.events.map((e) => JSON.parse(e.data).result)).toEqual(full.events.slice(2).map((e) => JSON.parse(e.data).result));
    });

    it('a non-numeric Last-Event-ID is invalid params, as plain JSON', async () => {
      const res = await s.rpcStream('SubscribeToTask', { id: 'whatever' }, { 'last-event-id': 'abc' });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await res.json()) as any;
      expect(body.error.code).toBe(-32602);
    });

    it('pre-stream failures come back as plain JSON, not SSE', async () => {
      const res = await s.rpcStream('SubscribeToTask', { id: 'no-such-task' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await res.json()) as any;
      expect(body.error.code).toBe(-32001);
      expect(typeof body.id).toBe('number');
    });

    it('echoes activated extensions in A2A-Extensions', async () => {
      const res = await s.rpc('SendMessage', sendMessageJson('hello'), { ...V, 'a2a-extensions': `${TEST_EXTENSION}, https://unknown.example/x` });
      expect(res.headers.get('a2a-extensions')).toBe(TEST_EXTENSION);
      const plain = await s.rpc('SendMessage', sendMessageJson('hello'));
      expect(plain.headers.get('a2a-extensions')).toBeNull();
    });

    it('accepts the A2A-Version query parameter in place of the header', async () => {
      const res = await s.rpc('ListTasks', {}, {}, `${RPC_URL}?A2A-Version=1.0`);
      expect(res.body.result).toBeDefined();
    });
  });

  describe('bad input gets a JSON-RPC error and the server keeps serving', () => {
    afterEach(async () => {
      const ok = await s.rpc('ListTasks', {});
      expect(ok.body.result).toBeDefined();
    });

    it('malformed JSON → -32700 with id null', async () => {
      const res = await s.postRaw('{"jsonrpc": "2.0", "id": 1, "method": ');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    });

    it('empty body → -32700', async () => {
      expect((await s.postRaw('')).body.error.code).toBe(-32700);
    });

    it.each([
      ['a string', '"hello"', null],
      ['a number', '42', null],
      ['null', 'null', null],
      ['wrong jsonrpc version', '{"jsonrpc":"1.0","id":7,"method":"GetTask"}', 7],
      ['missing jsonrpc', '{"id":7,"method":"GetTask"}', 7],
      ['an object id', '{"jsonrpc":"2.0","id":{"a":1},"method":"GetTask"}', null],
      ['a boolean id', '{"jsonrpc":"2.0","id":true,"method":"GetTask"}', null],
      ['a non-string method', '{"jsonrpc":"2.0","id":"x","method":5}', 'x'],
      ['scalar params', '{"jsonrpc":"2.0","id":"x","method":"GetTask","params":3}', 'x'],
      ['an empty batch', '[]', null],
    ])('%s → -32600', async (_name, body, id) => {
      const res = await s.postRaw(body);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32600 } });
    });

    it('unknown method → -32601 with ErrorInfo', async () => {
      const res = await s.rpc('tasks/list', {});
      expect(res.body.error.code).toBe(-32601);
      expect(res.body.error.data[0]).toMatchObject({ '@type': ERROR_INFO, reason: 'METHOD_NOT_FOUND' });
    });

    it('prototype names are unknown methods, not crashes', async () => {
      for (const method of ['__proto__', 'constructor', 'toString']) {
        expect((await s.rpc(method, {})).body.error.code).toBe(-32601);
      }
    });

    it('wrong param types → -32602 with field violations', async () => {
      const res = await s.rpc('SendMessage', { message: 'not an object' });
      expect(res.body.error.code).toBe(-32602);
      const badRequest = res.body.error.data.find((d: any) => d['@type'] === BAD_REQUEST);
      expect(badRequest.fieldViolations[0].field).toBe('message');
    });

    it('unknown param fields are ignored by default (spec: a receiver SHOULD ignore them)', async () => {
      const task = await createTask();
      const res = await s.rpc('GetTask', { id: task.id, kind: 'task' });
      expect(res.body.result.id).toBe(task.id);
      const sent = await s.rpc('SendMessage', { ...sendMessageJson('hi'), later: { field: 1 } });
      expect(sent.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    });

    it('unknown param fields → -32602 when the handler is strict (strictRequests)', async () => {
      const strict = jsonRpcEndpoint({ strictRequests: true });
      try {
        const res = await strict.rpc('GetTask', { id: 'x', kind: 'task' });
        expect(res.body.error.code).toBe(-32602);
        expect(JSON.stringify(res.body.error.data)).toContain('kind');
      } finally {
        await strict.close();
      }
    });

    it('array params → -32602', async () => {
      expect((await s.rpc('GetTask', ['x'])).body.error.code).toBe(-32602);
    });

    it('a missing A2A-Version header → -32009 VERSION_NOT_SUPPORTED', async () => {
      const res = await s.rpc('GetTask', { id: 'x' }, {});
      expect(res.status).toBe(200);
      expect(res.body.error.code).toBe(-32009);
      expect(res.body.error.data[0].reason).toBe('VERSION_NOT_SUPPORTED');
    });

    it('an unsupported A2A-Version → -32009', async () => {
      expect((await s.rpc('GetTask', { id: 'x' }, { 'a2a-version': '0.3' })).body.error.code).toBe(-32009);
    });

    it('GET → 405 with a JSON-RPC error body', async () => {
      const res = await s.post({ method: 'GET', headers: V });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(((await res.json()) as any).error.code).toBe(-32600);
    });

    it('a non-JSON content type → 415 with a -32005 ContentTypeNotSupported error and its ErrorInfo', async () => {
      const res = await s.postRaw('{"jsonrpc":"2.0","id":1,"method":"ListTasks"}', { 'content-type': 'text/plain', ...V });
      expect(res.status).toBe(415);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.body.error.code).toBe(-32005);
      expect(res.body.error.data).toEqual([expect.objectContaining({ '@type': ERROR_INFO, reason: 'CONTENT_TYPE_NOT_SUPPORTED', domain: 'a2a-protocol.org' })]);
    });

    it('answers in the JSON media type the client sent: application/json by default, application/a2a+json when used', async () => {
      const body = '{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}';
      const plain = await s.postRaw(body, { 'content-type': 'application/json', ...V });
      expect(plain.headers.get('content-type')).toBe('application/json');
      const a2a = await s.postRaw(body, { 'content-type': 'application/a2a+json', ...V });
      expect(a2a.headers.get('content-type')).toBe('application/a2a+json');
      expect(a2a.body.result).toBeDefined();
      const failure = await s.postRaw('{"jsonrpc":"2.0","id":2,"method":"GetTask","params":{"id":"nope"}}', {
        'content-type': 'application/a2a+json',
        ...V,
      });
      expect(failure.headers.get('content-type')).toBe('application/a2a+json');
      expect(failure.body.error.code).toBe(-32001);
      const wrongVerb = await s.post({ method: 'GET', headers: { accept: 'application/a2a+json', ...V } });
      expect(wrongVerb.headers.get('content-type')).toBe('application/a2a+json');
    });

    it('content types with parameters and a missing content type are accepted', async () => {
      const body = '{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}';
      expect((await s.postRaw(body, { 'content-type': 'application/json; charset=utf-8', ...V })).body.result).toBeDefined();
      const res = await s.post({ headers: V, body: Buffer.from(body) });
      expect(((await res.json()) as any).result).toBeDefined();
    });

    it('a streaming method as a notification → -32600', async () => {
      const res = await s.postRaw(JSON.stringify({ jsonrpc: '2.0', method: 'SubscribeToTask', params: { id: 'x' } }));
      expect(res.body.error.code).toBe(-32600);
    });
  });

  describe('batches and notifications', () => {
    it('answers a batch with an array in request order, skipping notifications', async () => {
      const res = await s.postRaw(
        JSON.stringify([
          { jsonrpc: '2.0', id: 'a', method: 'ListTasks', params: {} },
          { jsonrpc: '2.0', method: 'ListTasks', params: {} },
          { jsonrpc: '2.0', id: 'b', method: 'NoSuchMethod' },
          42,
          { jsonrpc: '2.0', id: 'c', method: 'SendStreamingMessage', params: sendMessageJson('hello') },
        ]),
      );
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body.map((r: any) => r.id)).toEqual(['a', 'b', null, 'c']);
      expect(res.body[0].result).toBeDefined();
      expect(res.body[1].error.code).toBe(-32601);
      expect(res.body[2].error.code).toBe(-32600);
      expect(res.body[3].error.code).toBe(-32600);
    });

    it('a batch of one still gets an array', async () => {
      const res = await s.postRaw(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }]));
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body).toHaveLength(1);
    });

    it('an all-notification batch and a single notification → 204, no content', async () => {
      const batch = await s.postRaw(
        JSON.stringify([
          { jsonrpc: '2.0', method: 'ListTasks', params: {} },
          { jsonrpc: '2.0', method: 'Nope' },
        ]),
      );
      expect(batch.status).toBe(204);
      expect(batch.text).toBe('');
      const single = await s.postRaw(JSON.stringify({ jsonrpc: '2.0', method: 'ListTasks', params: {} }));
      expect(single.status).toBe(204);
    });

    it('rejects batches over the size limit as a whole', async () => {
      const many = Array.from({ length: 65 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ListTasks', params: {} }));
      const res = await s.postRaw(JSON.stringify(many));
      expect(res.body).toMatchObject({ id: null, error: { code: -32600 } });
    });
  });
});

describe('JSON-RPC auth and failures', () => {
  // Oversize bodies (read off the socket, with or without Content-Length): packages/server/test/http-body-limits.test.ts.
  it('unauthenticated → 401 with WWW-Authenticate and a JSON-RPC body', async () => {
    const s = jsonRpcEndpoint({ apiKeys: { secret: 'alice' } });
    try {
      const res = await s.rpc('ListTasks', {});
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(res.body.error.data[0].reason).toBe('UNAUTHENTICATED');
      const ok = await s.rpc('ListTasks', {}, { ...V, authorization: 'Bearer secret' });
      expect(ok.status).toBe(200);
      expect(ok.body.result).toBeDefined();
    } finally {
      await s.close();
    }
  });

  // A stream failing after its first event, on every binding: conformance scenario
  // streaming/stream-fails-after-first-event. Here: JSON-RPC's own form of that end (the
  // error response carries the stream's request id) and of a unary internal error.
  it('never leaks internal error messages: unary, and the error response that ends a failed stream', async () => {
    const broken = [
      interceptOperation('GetTask', () => Promise.reject(new Error('secret internal detail'))),
      interceptOperation('SendStreamingMessage', async () => eventStreamFrom(failsAfterFirstEvent('secret internal detail'))),
    ];
    const logger = recordingLogger();
    const errors = logger.lines;
    const handler = new RequestHandler({ card: bindingTestCard(), executor: scriptedAgent(new Gates()), logger, interceptors: broken });
    const s = jsonRpcEndpoint({ handler, logger });
    try {
      const res = await s.rpc('GetTask', { id: 'x' });
      expect(res.body.error).toMatchObject({ code: -32603, message: 'Internal error' });
      expect(JSON.stringify(res.body)).not.toContain('secret');
      const stream = await s.rpcStream('SendStreamingMessage', sendMessageJson('hello'));
      const { events } = await readSse(stream);
      const last = JSON.parse(events.at(-1)!.data);
      expect(last.id).toBe(JSON.parse(events[0]!.data).id);
      expect(last.error).toMatchObject({ code: -32603, message: 'Internal error' });
      expect(events.at(-1)!.data).not.toContain('secret');
      expect(errors.length).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  });
});
