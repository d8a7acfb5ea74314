/**
 * The A2A v0.3 method names of the JSON-RPC binding as a v0.3 client sees them, called
 * in-process through `createJsonRpcExchangeHandler` (see `jsonRpcEndpoint`): no socket.
 */
import { readSseEvents as readSse, TEST_EXTENSION } from '@a2a-polyglot/testing';
import { type JsonRpcEndpoint, jsonRpcEndpoint } from './helpers.js';

/** No A2A-Version header: what every v0.3 client sends. */
const NONE: Record<string, string> = {};
let nextId = 1000;

function v03Send(text: string, configuration?: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    message: { kind: 'message', role: 'user', messageId: `m-${nextId++}`, parts: [{ kind: 'text', text }], ...extra },
    ...(configuration ? { configuration } : {}),
  };
}

async function stream(
  s: JsonRpcEndpoint,
  method: string,
  params: unknown,
  headers: Record<string, string> = NONE,
): Promise<{ res: Response; id: number; frames: any[] }> {
  const id = nextId++;
  const res = await s.post({
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  const read = await readSse(res);
  return { res, id, frames: read.events.map((e) => JSON.parse(e.data)) };
}

describe('JSON-RPC binding: A2A v0.3 method names on the same URL, in-process', () => {
  let s: JsonRpcEndpoint;
  beforeAll(() => {
    s = jsonRpcEndpoint();
  });
  afterAll(() => s.close());

  it('message/send without A2A-Version returns the completed task in v0.3 form (absent blocking = blocking)', async () => {
    const res = await s.rpc('message/send', v03Send('hello'), NONE);
    expect(res.status).toBe(200);
    const task = res.body.result;
    expect(task).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect(task.artifacts[0].parts).toEqual([{ kind: 'text', text: 'echo: hello' }]);
    expect(task.history[0]).toMatchObject({ kind: 'message', role: 'user' });
  });

  it('message/send with blocking:false returns at once; a direct reply is a kind:message', async () => {
    const early = await s.rpc('message/send', v03Send('gate g2', { blocking: false }), NONE);
    expect(early.body.result).toMatchObject({ kind: 'task', status: { state: expect.stringMatching(/^(submitted|working)$/) } });
    const canceled = await s.rpc('tasks/cancel', { id: early.body.result.id }, NONE);
    expect(canceled.body.result).toMatchObject({ kind: 'task', status: { state: 'canceled' } });
    const reply = await s.rpc('message/send', v03Send('echo x'), NONE);
    expect(reply.body.result).toMatchObject({ kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'echo x' }] });
  });

  it('tasks/get, multi-turn input-required, tasks/cancel of a finished task (v0.3 error codes)', async () => {
    const first = (await s.rpc('message/send', v03Send('input'), NONE)).body.result;
    expect(first.status.state).toBe('input-required');
    const next = (await s.rpc('message/send', v03Send('Paris', undefined, { taskId: first.id, contextId: first.contextId }), NONE)).body.result;
    expect(next).toMatchObject({ id: first.id, status: { state: 'completed' } });
    const got = await s.rpc('tasks/get', { id: first.id, historyLength: 1 }, NONE);
    expect(got.body.result).toMatchObject({ kind: 'task', id: first.id });
    expect(got.body.result.history).toHaveLength(1);
    const cancel = await s.rpc('tasks/cancel', { id: first.id }, NONE);
    expect(cancel.body.error).toMatchObject({ code: -32002 });
    const missing = await s.rpc('tasks/get', { id: 'nope' }, NONE);
    expect(missing.body.error).toMatchObject({ code: -32001, data: [expect.objectContaining({ reason: 'TASK_NOT_FOUND' })] });
  });

  it('message/stream: every SSE data is a JSON-RPC response with the request id and a v0.3 event', async () => {
    const { res, id, frames } = await stream(s, 'message/stream', v03Send('steps 2'));
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(frames.every((f) => f.jsonrpc === '2.0' && f.id === id)).toBe(true);
    const kinds = frames.map((f) => f.result.kind);
    expect(kinds[0]).toBe('task');
    expect(kinds).toContain('artifact-update');
    const last = frames.at(-1).result;
    expect(last).toMatchObject({ kind: 'status-update', status: { state: 'completed' }, final: true });
    expect(frames.filter((f) => f.result.kind === 'status-update' && f.result.status.state === 'working').every((f) => f.result.final === false)).toBe(true);
  });

  it('streaming methods answer failures as SSE too (v0.3 clients accept only text/event-stream)', async () => {
    const resub = await stream(s, 'tasks/resubscribe', { id: 'nope' });
    expect(resub.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(resub.frames).toEqual([{ jsonrpc: '2.0', id: resub.id, error: expect.objectContaining({ code: -32001 }) }]);
    const bad = await stream(s, 'message/stream', { message: { kind: 'message', role: 'user', messageId: 'x', parts: [{ kind: 'video' }] } });
    expect(bad.frames[0].error).toMatchObject({
      code: -32602,
      data: expect.arrayContaining([expect.objectContaining({ fieldViolations: [expect.objectContaining({ field: 'message.parts[0].kind' })] })]),
    });
  });

  it('tasks/resubscribe follows a running task in v0.3 form', async () => {
    const task = (await s.rpc('message/send', v03Send('gate g6', { blocking: false }), NONE)).body.result;
    const id = nextId++;
    const res = await s.post({
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tasks/resubscribe', params: { id: task.id } }),
    });
    // Release the task only once the snapshot frame arrived, so the stream sees it finish.
    // Open the gate once the first event (the task snapshot) has arrived; read to the end.
    const read = await readSse(res, (r) => (r.events.length === 1 && s.gates.open('g6'), false));
    const frames = read.events.map((e) => JSON.parse(e.data));
    expect(frames[0].result).toMatchObject({ kind: 'task', id: task.id });
    expect(frames.at(-1).result).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
  });

  it('push config set/get/list/delete in v0.3 shapes', async () => {
    const task = (await s.rpc('message/send', v03Send('input'), NONE)).body.result;
    const config = { url: 'https://hooks.example.com/a2a', token: 'tok', authentication: { schemes: ['Bearer'], credentials: 'secret' } };
    const set = await s.rpc('tasks/pushNotificationConfig/set', { taskId: task.id, pushNotificationConfig: config }, NONE);
    expect(set.body.result).toEqual({ taskId: task.id, pushNotificationConfig: { id: task.id, ...config } });
    const byTask = await s.rpc('tasks/pushNotificationConfig/get', { id: task.id }, NONE);
    const redacted = { ...config, id: task.id, token: '********', authentication: { schemes: ['Bearer'], credentials: '********' } };
    expect(byTask.body.result).toEqual({ taskId: task.id, pushNotificationConfig: redacted });
    await s.rpc('tasks/pushNotificationConfig/set', { taskId: task.id, pushNotificationConfig: { id: 'second', url: 'https://hooks.example.com/b' } }, NONE);
    const list = await s.rpc('tasks/pushNotificationConfig/list', { id: task.id }, NONE);
    expect(list.body.result.map((c: any) => c.pushNotificationConfig.id).sort()).toEqual(['second', task.id].sort());
    const del = await s.rpc('tasks/pushNotificationConfig/delete', { id: task.id, pushNotificationConfigId: 'second' }, NONE);
    expect(del.body).toEqual({ jsonrpc: '2.0', id: expect.anything(), result: null });
    const gone = await s.rpc('tasks/pushNotificationConfig/get', { id: task.id, pushNotificationConfigId: 'second' }, NONE);
    expect(gone.body.error.code).toBe(-32001);
  });

  it('agent/getAuthenticatedExtendedCard answers a v0.3 card', async () => {
    const res = await s.rpc('agent/getAuthenticatedExtendedCard', undefined, NONE);
    expect(res.body.result).toMatchObject({
      name: 'extended test agent',
      protocolVersion: '0.3.0',
      preferredTransport: 'JSONRPC',
      supportsAuthenticatedExtendedCard: true,
    });
    expect(res.body.result.supportedInterfaces).toBeUndefined();
  });

  it('accepts X-A2A-Extensions and echoes it under the v0.3 name', async () => {
    const res = await s.rpc('message/send', v03Send('hi'), { 'x-a2a-extensions': TEST_EXTENSION });
    expect(res.body.result.kind).toBe('task');
    expect(res.headers.get('x-a2a-extensions')).toBe(TEST_EXTENSION);
    expect(res.headers.get('a2a-extensions')).toBeNull();
  });

  it('gives clear errors for a mixed generation: v0.3 method with A2A-Version 1.0, v1.0 method without it', async () => {
    const v03With10 = await s.rpc('message/send', v03Send('hi'), { 'a2a-version': '1.0' });
    expect(v03With10.body.error).toMatchObject({
      code: -32600,
      message: expect.stringContaining('v0.3 call'),
      data: [expect.objectContaining({ reason: 'VERSION_NOT_SUPPORTED' })],
    });
    const v10Without = await s.rpc('SendMessage', { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } }, NONE);
    expect(v10Without.body.error).toMatchObject({ code: -32009, message: expect.stringContaining('send A2A-Version: 1.0') });
    const explicit03 = await s.rpc('tasks/get', { id: 'nope' }, { 'a2a-version': '0.3' });
    expect(explicit03.body.error.code).toBe(-32001);
  });

  it('serves v0.3 unary methods inside a batch, and still rejects streaming ones there', async () => {
    const res = await s.post({
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'nope' } },
        { jsonrpc: '2.0', id: 2, method: 'message/stream', params: v03Send('x') },
        { jsonrpc: '2.0', id: 3, method: 'message/send', params: v03Send('x') },
      ]),
    });
    const body = (await res.json()) as any[];
    expect(body.map((r) => r.error?.code ?? r.result.kind)).toEqual([-32001, -32600, 'task']);
  });
});
