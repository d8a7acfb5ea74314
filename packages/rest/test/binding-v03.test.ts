/**
 * The A2A v0.3 REST routes (under /v1/) as a v0.3 client sees them, called in-process through
 * `createRestExchangeHandler` (see `restEndpoint`): no socket.
 */
import { readSseEvents as readSse, sendMessageJson } from '@a2a-polyglot/testing';
import { type RestEndpoint, restEndpoint, V } from './helpers.js';

/** What a v0.3 client sends: no A2A-Version, plain `application/json` (v0.3 predates `application/a2a+json`). */
const NO_VERSION: Record<string, string> = { 'content-type': 'application/json' };

/** A v0.3 SendMessageRequest JSON (`content` parts, `blocking`). */
function v03Send(text: string, extra: Record<string, unknown> = {}, blocking = true): Record<string, unknown> {
  return { message: { messageId: `m-${Math.random().toString(36).slice(2)}`, role: 'ROLE_USER', content: [{ text }], ...extra }, configuration: { blocking } };
}

function v03Post(s: RestEndpoint, path: string, body?: unknown, accept = 'application/json'): Promise<Response> {
  return s.call(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('REST v0.3 (/v1/…, ProtoJSON of a2a.v1), in-process', () => {
  let s: RestEndpoint;
  beforeAll(() => {
    s = restEndpoint();
  });
  afterAll(() => s.close());

  it('POST /v1/message:send answers the v0.3 SendMessageResponse (content parts, CANCELLED spelling)', async () => {
    const res = await s.rest('POST', '/v1/message:send', v03Send('hello'), NO_VERSION);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(res.body.task.artifacts[0].parts).toEqual([{ text: 'echo: hello' }]);
    expect(res.body.task.history[0].content).toEqual([{ text: 'hello' }]);
    const reply = await s.rest('POST', '/v1/message:send', v03Send('echo'), NO_VERSION);
    expect(reply.body.message.content).toEqual([{ text: 'echo' }]);
  });

  it('bodies are validated strictly as a2a.v1: v1.0 shapes are unknown fields (400, v0.3 code -32602)', async () => {
    const res = await s.rest('POST', '/v1/message:send', sendMessageJson('hello'), NO_VERSION);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(-32602);
    const badRequest = res.body.data.find((d: { fieldViolations?: unknown }) => d.fieldViolations);
    expect(badRequest.fieldViolations.map((v: { field: string }) => v.field)).toEqual(['message.parts']);
    expect(res.body.error).toBeUndefined();
  });

  it('GET /v1/tasks/{id}?historyLength=, POST :cancel on a running task, unknown task → 404 -32001', async () => {
    const created = await s.rest('POST', '/v1/message:send', v03Send('gate g3', {}, false), NO_VERSION);
    const id = created.body.task.id;
    const got = await s.rest('GET', `/v1/tasks/${id}?historyLength=1`, undefined, NO_VERSION);
    expect(got.status).toBe(200);
    expect(got.body.history).toHaveLength(1);
    const canceled = await v03Post(s, `/v1/tasks/${id}:cancel`);
    expect(canceled.status).toBe(200);
    expect(((await canceled.json()) as any).status.state).toBe('TASK_STATE_CANCELLED');
    const missing = await s.rest('GET', '/v1/tasks/nope', undefined, NO_VERSION);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: -32001, message: 'Task nope not found', data: [expect.objectContaining({ reason: 'TASK_NOT_FOUND' })] });
    const again = await v03Post(s, `/v1/tasks/${id}:cancel`);
    expect(again.status).toBe(400);
    expect(((await again.json()) as any).code).toBe(-32002);
  });

  it('POST /v1/message:stream streams v0.3 StreamResponses; final only on the terminal status', async () => {
    const res = await v03Post(s, '/v1/message:stream', v03Send('steps 2'), 'text/event-stream');
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await readSse(res)).events.map((e) => JSON.parse(e.data));
    expect(Object.keys(events[0])).toEqual(['task']);
    const updates = events.filter((e) => e.statusUpdate).map((e) => [e.statusUpdate.status.state, e.statusUpdate.final ?? false]);
    expect(updates.at(-1)).toEqual(['TASK_STATE_COMPLETED', true]);
    expect(updates.slice(0, -1).every(([, final]) => final === false)).toBe(true);
    expect(events.filter((e) => e.artifactUpdate)).toHaveLength(2);
  });

  it('subscribe (POST and GET) to a running task: the task first, then live events', async () => {
    const created = await s.rest('POST', '/v1/message:send', v03Send('gate g5', {}, false), NO_VERSION);
    const id = created.body.task.id;
    const res = await v03Post(s, `/v1/tasks/${id}:subscribe`, undefined, 'text/event-stream');
    const get = await s.call(`/v1/tasks/${id}:subscribe`, { headers: { accept: 'text/event-stream' } });
    s.gates.open('g5');
    for (const r of [res, get]) {
      const events = (await readSse(r)).events.map((e) => JSON.parse(e.data));
      expect(events[0].task.id).toBe(id);
      expect(events.at(-1).statusUpdate).toMatchObject({ status: { state: 'TASK_STATE_COMPLETED' }, final: true });
    }
  });

  it('push configs: POST body = config → 201, GET one, GET list, DELETE → 204', async () => {
    const created = await s.rest('POST', '/v1/message:send', v03Send('input'), NO_VERSION);
    const id = created.body.task.id;
    const config = {
      name: `tasks/${id}/pushNotificationConfigs/p1`,
      pushNotificationConfig: { id: 'p1', url: 'http://127.0.0.1:9/hook', token: 't', authentication: { schemes: ['Bearer'] } },
    };
    const set = await s.rest('POST', `/v1/tasks/${id}/pushNotificationConfigs`, config, NO_VERSION);
    expect(set.status).toBe(201);
    expect(set.body).toEqual(config);
    const redacted = { ...config, pushNotificationConfig: { ...config.pushNotificationConfig, token: '********' } };
    expect((await s.rest('GET', `/v1/tasks/${id}/pushNotificationConfigs/p1`, undefined, NO_VERSION)).body).toEqual(redacted);
    expect((await s.rest('GET', `/v1/tasks/${id}/pushNotificationConfigs`, undefined, NO_VERSION)).body).toEqual({ configs: [redacted] });
    const del = await s.rest('DELETE', `/v1/tasks/${id}/pushNotificationConfigs/p1`, undefined, NO_VERSION);
    expect(del.status).toBe(204);
    expect((await s.rest('GET', `/v1/tasks/${id}/pushNotificationConfigs/p1`, undefined, NO_VERSION)).status).toBe(404);
  });

  it('GET /v1/card answers the extended card in its v0.3 form', async () => {
    const res = await s.rest('GET', '/v1/card', undefined, NO_VERSION);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'extended test agent', protocolVersion: '0.3.0', supportsAuthenticatedExtendedCard: true });
  });

  it('unknown v0.3 routes → 404 -32601, as v1.0 answers its unknown routes; wrong verb → 405; ListTasks has no v0.3 route', async () => {
    const unknown = await s.rest('GET', '/v1/nope', undefined, NO_VERSION);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(-32601);
    expect((await s.rest('GET', '/nope', undefined, V)).status).toBe(unknown.status);
    expect((await s.rest('GET', '/v1/tasks', undefined, NO_VERSION)).status).toBe(404);
    const wrong = await s.rest('GET', '/v1/message:send', undefined, NO_VERSION);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });

  it('the version rule: A2A-Version 1.0 keeps /v1/… as tenant v1; 0.3 (header or query) gets v0.3', async () => {
    const asTenant = await s.rest('POST', '/v1/message:send', sendMessageJson('hello'), V);
    expect(asTenant.status).toBe(200);
    const id = asTenant.body.task.id;
    expect((await s.rest('GET', `/v1/tasks/${id}`, undefined, V)).body.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await s.rest('GET', `/tasks/${id}`, undefined, V)).status).toBe(404); // tenant-scoped
    const v03 = await s.rest('POST', '/v1/message:send', v03Send('hello'), { 'a2a-version': '0.3' });
    expect(v03.body.task.history[0].content).toEqual([{ text: 'hello' }]);
    const q = await s.rest('POST', '/v1/message:send?A2A-Version=0.3', v03Send('hello'), NO_VERSION);
    expect(q.status).toBe(200);
    // Outside /v1/ a call without a version is still refused (v1.0 routes only).
    expect((await s.rest('POST', '/message:send', v03Send('hello'), NO_VERSION)).status).toBe(400);
  });

  it('malformed JSON and a non-JSON content type are v0.3 errors, never a crash', async () => {
    const bad = await s.call(`/v1/message:send`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).code).toBe(-32700);
    const text = await s.call(`/v1/message:send`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(text.status).toBe(415);
    expect(((await text.json()) as any).code).toBe(-32005); // ContentTypeNotSupported, in v0.3 too
    expect((await s.rest('POST', '/v1/message:send', v03Send('echo'), NO_VERSION)).status).toBe(200);
  });
});
