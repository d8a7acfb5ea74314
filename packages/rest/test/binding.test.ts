/**
 * The REST (HTTP+JSON) binding as a client sees it (statuses, headers, bodies, SSE frames),
 * called in-process through `createRestExchangeHandler` (see `restEndpoint`): no socket.
 */
import { eventStreamFrom, interceptOperation, RequestHandler } from '@a2a-polyglot/core';
import { bindingTestCard, failsAfterFirstEvent, Gates, readSseEvents as readSse, scriptedAgent, sendMessageJson, TEST_EXTENSION } from '@a2a-polyglot/testing';
import { type RestEndpoint, restEndpoint, V } from './helpers.js';

const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';

describe('REST (HTTP+JSON) binding, in-process', () => {
  let s: RestEndpoint;
  beforeAll(() => {
    s = restEndpoint();
  });
  afterAll(() => s.close());

  async function createTask(text = 'hello', prefix = ''): Promise<any> {
    const res = await s.rest('POST', `${prefix}/message:send`, sendMessageJson(text));
    expect(res.status).toBe(200);
    return res.body.task;
  }

  describe('every operation', () => {
    it('POST /message:send answers application/a2a+json with the wrapped task', async () => {
      const res = await s.rest('POST', '/message:send', sendMessageJson('hello'));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/a2a+json');
      expect(res.body.task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(res.body.task.artifacts[0].parts[0].text).toBe('echo: hello');
    });

    it('accepts application/json bodies too, and answers them in application/json', async () => {
      const res = await s.call('/message:send', {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', ...V },
        body: JSON.stringify(sendMessageJson('echo')),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(((await res.json()) as any).message.parts[0].text).toBe('echo');
    });

    it('answers GET and DELETE in the JSON type Accept names, errors included, else application/a2a+json', async () => {
      const task = await createTask();
      const asJson = await s.rest('GET', `/tasks/${task.id}`, undefined, { ...V, accept: 'application/json' });
      expect(asJson.headers.get('content-type')).toBe('application/json');
      expect(asJson.body.id).toBe(task.id);
      const missing = await s.rest('GET', '/tasks/nope', undefined, { ...V, accept: 'application/json' });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toBe('application/json');
      const sdk = await s.rest('GET', `/tasks/${task.id}`, undefined, { ...V, accept: 'application/a2a+json, application/json' });
      expect(sdk.headers.get('content-type')).toBe('application/a2a+json');
      const any = await s.rest('GET', '/tasks', undefined, { ...V, accept: '*/*' });
      expect(any.headers.get('content-type')).toBe('application/a2a+json');
      const jsonError = await s.call('/message:send', { method: 'POST', headers: { 'content-type': 'application/json', ...V }, body: '{}' });
      expect(jsonError.status).toBe(400);
      expect(jsonError.headers.get('content-type')).toBe('application/json');
    });

    it('GET /tasks/{id} with historyLength from the query', async () => {
      const task = await createTask();
      const res = await s.rest('GET', `/tasks/${task.id}?historyLength=0`);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(task.id);
      expect(res.body.history).toBeUndefined();
      const full = await s.rest('GET', `/tasks/${task.id}`);
      expect(full.body.history.length).toBeGreaterThan(0);
    });

    it('GET /tasks filters and converts query values', async () => {
      const task = await createTask();
      const res = await s.rest(
        'GET',
        `/tasks?contextId=${task.contextId}&status=TASK_STATE_COMPLETED&pageSize=5&includeArtifacts=true&statusTimestampAfter=2000-01-01T00:00:00Z`,
      );
      expect(res.status).toBe(200);
      expect(res.body.tasks.map((t: any) => t.id)).toEqual([task.id]);
      expect(res.body.tasks[0].artifacts).toHaveLength(1);
      expect(res.body.pageSize).toBe(5);
      expect(res.body.nextPageToken).toBe('');
      const without = await s.rest('GET', `/tasks?contextId=${task.contextId}`);
      expect(without.body.tasks[0].artifacts).toBeUndefined();
    });

    it('POST /tasks/{id}:cancel with an optional metadata body', async () => {
      const sent = await s.rest('POST', '/message:send', sendMessageJson('gate g6', {}, { returnImmediately: true }));
      const res = await s.rest('POST', `/tasks/${sent.body.task.id}:cancel`, { metadata: { reason: 'test' } });
      expect(res.status).toBe(200);
      expect(res.body.status.state).toBe('TASK_STATE_CANCELED');
      const again = await s.rest('POST', `/tasks/${sent.body.task.id}:cancel`);
      expect(again.status).toBe(400);
      expect(again.body.error).toMatchObject({ code: 400, status: 'FAILED_PRECONDITION' });
      expect(again.body.error.details[0]).toMatchObject({ '@type': ERROR_INFO, reason: 'TASK_NOT_CANCELABLE', domain: 'a2a-protocol.org' });
    });

    it('push configs: POST → 201, GET one, GET list, DELETE → 204 empty', async () => {
      const task = await createTask();
      const created = await s.rest('POST', `/tasks/${task.id}/pushNotificationConfigs`, { url: 'http://127.0.0.1:9/hook' });
      expect(created.status).toBe(201);
      expect(created.body.taskId).toBe(task.id);
      const id = created.body.id;
      const got = await s.rest('GET', `/tasks/${task.id}/pushNotificationConfigs/${id}`);
      expect(got.status).toBe(200);
      expect(got.body.url).toBe('http://127.0.0.1:9/hook');
      const list = await s.rest('GET', `/tasks/${task.id}/pushNotificationConfigs?pageSize=10`);
      expect(list.body.configs.map((c: any) => c.id)).toEqual([id]);
      const deleted = await s.rest('DELETE', `/tasks/${task.id}/pushNotificationConfigs/${id}`);
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expect((await s.rest('GET', `/tasks/${task.id}/pushNotificationConfigs/${id}`)).status).toBe(404);
    });

    it('a body repeating a path field must agree with the path', async () => {
      const task = await createTask();
      const same = await s.rest('POST', `/tasks/${task.id}/pushNotificationConfigs`, { taskId: task.id, url: 'http://127.0.0.1:9/a' });
      expect(same.status).toBe(201);
      const other = await s.rest('POST', `/tasks/${task.id}/pushNotificationConfigs`, { taskId: 'other', url: 'http://127.0.0.1:9/a' });
      expect(other.status).toBe(400);
      expect(other.body.error.details[0].reason).toBe('INVALID_PARAMS');
    });

    it('GET /extendedAgentCard', async () => {
      const res = await s.rest('GET', '/extendedAgentCard');
      expect(res.status).toBe(200);
      expect(res.body.name).toBe('extended test agent');
    });

    it('every route also works under a /{tenant} prefix, scoped to that tenant', async () => {
      const task = await createTask('hello', '/t1');
      expect((await s.rest('GET', `/t1/tasks/${task.id}`)).status).toBe(200);
      expect((await s.rest('GET', `/t2/tasks/${task.id}`)).status).toBe(404);
      expect((await s.rest('GET', `/tasks/${task.id}`)).status).toBe(404);
      const listed = await s.rest('GET', '/t1/tasks');
      expect(listed.body.tasks.map((t: any) => t.id)).toContain(task.id);
      expect((await s.rest('GET', '/t1/extendedAgentCard')).status).toBe(200);
    });

    it('POST /message:stream streams bare StreamResponses with id: seq', async () => {
      const res = await s.stream('POST', '/message:stream', sendMessageJson('hello'));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const { events } = await readSse(res);
      expect(events.map((e) => e.id)).toEqual(['1', '2', '3', '4']);
      const bodies = events.map((e) => JSON.parse(e.data));
      expect(bodies.map((b) => Object.keys(b))).toEqual([['task'], ['statusUpdate'], ['artifactUpdate'], ['statusUpdate']]);
    });

    it.each(['GET', 'POST'])('%s /tasks/{id}:subscribe resumes with Last-Event-ID', async (verb) => {
      const full = await readSse(await s.stream('POST', '/message:stream', sendMessageJson('hello')));
      const id = JSON.parse(full.events[0]!.data).task.id;
      const resumed = await readSse(await s.stream(verb, `/tasks/${id}:subscribe`, undefined, { 'last-event-id': '1' }));
      expect(resumed.events.map((e) => e.id)).toEqual(['2', '3', '4']);
      expect(resumed.events.map((e) => e.data)).toEqual(full.events.slice(1).map((e) => e.data));
    });

    it('subscribe to a working task: snapshot first, then live events', async () => {
      const sent = await s.rest('POST', '/message:send', sendMessageJson('gate g12', {}, { returnImmediately: true }));
      // Live events are released once the snapshot arrived.
      const { events } = await readSse(
        await s.stream('GET', `/tasks/${sent.body.task.id}:subscribe`),
        (read) => (read.events.length === 1 && s.gates.open('g12'), false),
      );
      expect(Object.keys(JSON.parse(events[0]!.data))).toEqual(['task']);
      expect(JSON.parse(events[events.length - 1]!.data).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    });

    it('pre-stream failures are normal HTTP errors', async () => {
      const res = await s.stream('GET', '/tasks/nope:subscribe');
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/a2a+json');
      expect(((await res.json()) as any).error.details[0].reason).toBe('TASK_NOT_FOUND');
      const bad = await s.stream('GET', '/tasks/nope:subscribe', undefined, { 'last-event-id': 'x' });
      expect(bad.status).toBe(400);
    });

    it('echoes activated extensions', async () => {
      const res = await s.rest('POST', '/message:send', sendMessageJson('hello'), { ...V, 'a2a-extensions': TEST_EXTENSION });
      expect(res.headers.get('a2a-extensions')).toBe(TEST_EXTENSION);
    });

    it('accepts ?A2A-Version=1.0 instead of the header', async () => {
      const res = await s.rest('GET', '/tasks?A2A-Version=1.0&pageSize=1', undefined, {});
      expect(res.status).toBe(200);
    });

    it('decodes percent-encoded ids', async () => {
      const res = await s.rest('GET', `/tasks/${encodeURIComponent('a:b/c')}`);
      expect(res.status).toBe(404);
      expect(res.body.error.details[0]).toMatchObject({ reason: 'TASK_NOT_FOUND', metadata: { taskId: 'a:b/c' } });
    });
  });

  describe('bad input gets the right HTTP error and the server keeps serving', () => {
    afterEach(async () => {
      expect((await s.rest('GET', '/tasks')).status).toBe(200);
    });

    it('malformed JSON → 400 PARSE_ERROR', async () => {
      const res = await s.call('/message:send', { method: 'POST', headers: { 'content-type': 'application/json', ...V }, body: '{"message": ' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as any;
      expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
      expect(body.error.details[0].reason).toBe('PARSE_ERROR');
    });

    it('a non-object body → 400', async () => {
      expect((await s.rest('POST', '/message:send', [1, 2])).status).toBe(400);
    });

    it('wrong field types → 400 INVALID_PARAMS with violations; unknown fields are ignored', async () => {
      const wrong = await s.rest('POST', '/message:send', { message: { role: 'ROLE_USER', parts: 'x', messageId: 'm' } });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.details[0].reason).toBe('INVALID_PARAMS');
      expect(wrong.body.error.details[1].fieldViolations[0].field).toBe('message.parts');
      const unknown = await s.rest('POST', '/message:send', { ...sendMessageJson('x'), kind: 'message' });
      expect(unknown.status).toBe(200);
      expect(unknown.body.task.status.state).toBe('TASK_STATE_COMPLETED');
      const unknownQuery = await s.rest('GET', '/tasks?bogus=1&pageSize=1');
      expect(unknownQuery.status).toBe(200);
      expect(unknownQuery.body.pageSize).toBe(1);
    });

    it('unknown body members and query parameters → 400 when the handler is strict (strictRequests)', async () => {
      const strict = restEndpoint({ strictRequests: true });
      try {
        const body = await strict.rest('POST', '/message:send', { ...sendMessageJson('x'), kind: 'message' });
        expect(body.status).toBe(400);
        expect(body.body.error.details[1].fieldViolations[0]).toMatchObject({ field: 'kind' });
        const query = await strict.rest('GET', '/tasks?bogus=1');
        expect(query.status).toBe(400);
        expect(query.body.error.details[1].fieldViolations[0]).toMatchObject({ field: 'bogus' });
      } finally {
        await strict.close();
      }
    });

    it('malformed query parameters → 400', async () => {
      expect((await s.rest('GET', '/tasks?pageSize=ten')).status).toBe(400);
      expect((await s.rest('GET', '/tasks?includeArtifacts=yes')).status).toBe(400);
      expect((await s.rest('GET', '/tasks?status=DONE')).status).toBe(400);
      expect((await s.rest('GET', '/tasks?pageSize=1&pageSize=2')).status).toBe(400);
      expect((await s.rest('GET', '/tasks/x?id=y')).status).toBe(400);
      expect((await s.rest('POST', '/message:send?tenant=t', sendMessageJson('x'))).status).toBe(400);
    });

    it('unknown paths → 404 METHOD_NOT_FOUND', async () => {
      for (const path of ['/nope', '/v1/card', '/tasks/x/y', '/a/b/c/d/e']) {
        const res = await s.rest('GET', path);
        expect(res.status).toBe(404);
        expect(res.body.error.details[0].reason).toBe('METHOD_NOT_FOUND');
      }
    });

    it('known paths with the wrong verb → 405 with Allow', async () => {
      const res = await s.rest('GET', '/message:send');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body.error.code).toBe(405);
      const del = await s.rest('DELETE', '/tasks/x');
      expect(del.status).toBe(405);
      expect((await s.rest('PUT', '/tasks/x:subscribe')).headers.get('allow')).toBe('GET, POST');
    });

    it('a non-JSON content type → 415 with the CONTENT_TYPE_NOT_SUPPORTED ErrorInfo', async () => {
      const res = await s.call('/message:send', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', ...V },
        body: JSON.stringify(sendMessageJson('x')),
      });
      expect(res.status).toBe(415);
      const body = (await res.json()) as any;
      expect(body.error).toMatchObject({ code: 415, status: 'INVALID_ARGUMENT' });
      expect(body.error.details).toEqual([expect.objectContaining({ '@type': ERROR_INFO, reason: 'CONTENT_TYPE_NOT_SUPPORTED', domain: 'a2a-protocol.org' })]);
    });

    it('a missing A2A-Version → 400 VERSION_NOT_SUPPORTED', async () => {
      const res = await s.rest('GET', '/tasks', undefined, {});
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].reason).toBe('VERSION_NOT_SUPPORTED');
    });

    it('a malformed percent-escape in the path → 400', async () => {
      expect((await s.rest('GET', '/tasks/%E0%A4%A')).status).toBe(400);
    });
  });
});

describe('REST limits, auth and failures', () => {
  it('oversize bodies → 413', async () => {
    const s = restEndpoint({ maxBodyBytes: 1024 });
    try {
      const res = await s.rest('POST', '/message:send', sendMessageJson('x'.repeat(2000)));
      expect(res.status).toBe(413);
      expect(res.body.error).toMatchObject({ code: 413 });
      expect(res.body.error.details[0].reason).toBe('PAYLOAD_TOO_LARGE');
      expect((await s.rest('POST', '/message:send', sendMessageJson('small'))).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('unauthenticated → 401 with WWW-Authenticate', async () => {
    const s = restEndpoint({ apiKeys: { k1: 'alice' } });
    try {
      const res = await s.rest('GET', '/tasks');
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect((await s.rest('GET', '/tasks', undefined, { ...V, 'x-api-key': 'k1' })).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  // The behaviour on every binding: conformance scenario streaming/stream-fails-after-first-event.
  // Here: REST's own form of that end, an SSE `event: error` with the HTTP error body.
  it('a mid-stream failure ends with event: error and no internals', async () => {
    const broken = interceptOperation('SendStreamingMessage', async () => eventStreamFrom(failsAfterFirstEvent('secret internal detail')));
    const handler = new RequestHandler({ card: bindingTestCard(), executor: scriptedAgent(new Gates()), interceptors: [broken] });
    const s = restEndpoint({ handler });
    try {
      const { events } = await readSse(await s.stream('POST', '/message:stream', sendMessageJson('x')));
      const last = events.at(-1)!;
      expect(last.event).toBe('error');
      expect(JSON.parse(last.data).error).toMatchObject({ code: 500, status: 'INTERNAL', message: 'Internal error' });
      expect(last.data).not.toContain('secret');
    } finally {
      await s.close();
    }
  });
});
