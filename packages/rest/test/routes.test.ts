import { decodeJsonRequest, OPERATIONS } from '@a2a-polyglot/core';
import { buildRequestJson, matchRoute, matchV03Route, REST_ROUTES, V03_REST_ROUTES } from '../src/index.js';

describe('matchRoute', () => {
  it.each([
    ['POST', '/message:send', 'SendMessage', {}, undefined],
    ['POST', '/message:stream', 'SendStreamingMessage', {}, undefined],
    ['GET', '/tasks', 'ListTasks', {}, undefined],
    ['GET', '/tasks/abc', 'GetTask', { id: 'abc' }, undefined],
    ['GET', '/tasks/a:b', 'GetTask', { id: 'a:b' }, undefined],
    ['POST', '/tasks/abc:cancel', 'CancelTask', { id: 'abc' }, undefined],
    ['GET', '/tasks/abc:subscribe', 'SubscribeToTask', { id: 'abc' }, undefined],
    ['POST', '/tasks/abc:subscribe', 'SubscribeToTask', { id: 'abc' }, undefined],
    ['POST', '/tasks/abc/pushNotificationConfigs', 'CreateTaskPushNotificationConfig', { taskId: 'abc' }, undefined],
    ['GET', '/tasks/abc/pushNotificationConfigs', 'ListTaskPushNotificationConfigs', { taskId: 'abc' }, undefined],
    ['GET', '/tasks/abc/pushNotificationConfigs/c1', 'GetTaskPushNotificationConfig', { taskId: 'abc', id: 'c1' }, undefined],
    ['DELETE', '/tasks/abc/pushNotificationConfigs/c1', 'DeleteTaskPushNotificationConfig', { taskId: 'abc', id: 'c1' }, undefined],
    ['GET', '/extendedAgentCard', 'GetExtendedAgentCard', {}, undefined],
    ['POST', '/t1/message:send', 'SendMessage', {}, 't1'],
    ['GET', '/t1/tasks', 'ListTasks', {}, 't1'],
    ['POST', '/t%201/tasks/a%2Fb:cancel', 'CancelTask', { id: 'a/b' }, 't 1'],
    ['DELETE', '/t1/tasks/abc/pushNotificationConfigs/c1', 'DeleteTaskPushNotificationConfig', { taskId: 'abc', id: 'c1' }, 't1'],
  ])('%s %s → %s', (verb, path, operation, params, tenant) => {
    const match = matchRoute(verb, path);
    expect(match).toEqual({ kind: 'route', route: expect.objectContaining({ operation }), params, ...(tenant === undefined ? {} : { tenant }) });
  });

  it('covers every operation', () => {
    expect(new Set(REST_ROUTES.map((r) => r.operation))).toEqual(new Set(Object.keys(OPERATIONS)));
  });

  it('tells wrong verbs from unknown paths', () => {
    expect(matchRoute('GET', '/message:send')).toEqual({ kind: 'wrong-verb', allow: ['POST'] });
    expect(matchRoute('GET', '/tasks/x:cancel')).toEqual({ kind: 'wrong-verb', allow: ['POST'] });
    expect(matchRoute('GET', '/nope')).toEqual({ kind: 'not-found' });
    expect(matchRoute('GET', '/tasks/')).toEqual({ kind: 'not-found' });
    expect(matchRoute('GET', '')).toEqual({ kind: 'not-found' });
  });

  it('rejects malformed escapes', () => {
    expect(() => matchRoute('GET', '/tasks/%zz')).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });
});

describe('buildRequestJson', () => {
  const q = (s: string) => new URLSearchParams(s);

  it('converts query values by field type and adds path fields', () => {
    expect(
      buildRequestJson(OPERATIONS.ListTasks.requestType, {}, q('pageSize=5&include_artifacts=true&status=TASK_STATE_WORKING&A2A-Version=1.0'), undefined, true),
    ).toEqual({
      pageSize: 5,
      includeArtifacts: true,
      status: 'TASK_STATE_WORKING',
    });
    expect(buildRequestJson(OPERATIONS.GetTask.requestType, { id: 'x' }, q('historyLength=2'), undefined, true)).toEqual({ id: 'x', historyLength: 2 });
  });

  it('keeps 64-bit integers (the 1.1 ?currentGeneration=) as their ProtoJSON string, so no digit past 2^53 is lost', () => {
    expect(buildRequestJson(OPERATIONS.GetTask.requestType, { id: 'x' }, q('currentGeneration=9007199254740993'), undefined, true)).toEqual({
      id: 'x',
      currentGeneration: '9007199254740993',
    });
    const decoded = decodeJsonRequest(
      OPERATIONS.GetTask,
      buildRequestJson(OPERATIONS.GetTask.requestType, { id: 'x' }, q('currentGeneration=5'), undefined, true),
    );
    expect(decoded.currentGeneration).toBe('5');
  });

  it('leaves unconvertible values to the decoder; ignores unknown names, or rejects them when strict', () => {
    expect(buildRequestJson(OPERATIONS.ListTasks.requestType, {}, q('pageSize=abc'), undefined, true)).toEqual({ pageSize: 'abc' });
    expect(buildRequestJson(OPERATIONS.ListTasks.requestType, {}, q('nope=1&pageSize=2'), undefined, true)).toEqual({ pageSize: 2 });
    expect(() => buildRequestJson(OPERATIONS.ListTasks.requestType, {}, q('nope=1'), undefined, true, { strict: true })).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMS' }),
    );
    expect(() => buildRequestJson(OPERATIONS.GetTask.requestType, { id: 'x' }, q('id=y'), undefined, true)).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMS' }),
    );
  });

  it('merges body and path for POST, rejecting conflicts and stray query fields', () => {
    expect(buildRequestJson(OPERATIONS.CancelTask.requestType, { id: 'x' }, q(''), { metadata: { a: 1 } }, false)).toEqual({ id: 'x', metadata: { a: 1 } });
    expect(buildRequestJson(OPERATIONS.CancelTask.requestType, { id: 'x' }, q(''), { id: 'x' }, false)).toEqual({ id: 'x' });
    expect(() => buildRequestJson(OPERATIONS.CancelTask.requestType, { id: 'x' }, q(''), { id: 'y' }, false)).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMS' }),
    );
    expect(() => buildRequestJson(OPERATIONS.SendMessage.requestType, {}, q('tenant=t'), {}, false)).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMS' }),
    );
    expect(buildRequestJson(OPERATIONS.SendMessage.requestType, {}, q('later=1'), {}, false)).toEqual({});
    expect(() => buildRequestJson(OPERATIONS.SendMessage.requestType, {}, q('later=1'), {}, false, { strict: true })).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMS' }),
    );
    expect(() => buildRequestJson(OPERATIONS.SendMessage.requestType, {}, q(''), 'text', false)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS' }));
  });
});

describe('matchV03Route', () => {
  it('serves the v0.3 routes under /v1/, without tenants', () => {
    expect(matchV03Route('GET', '/v1/tasks/a%2Fb')).toMatchObject({ kind: 'route', route: { operation: 'GetTask' }, params: { id: 'a/b' } });
    expect(matchV03Route('POST', '/v1/tasks/x:cancel')).toMatchObject({ kind: 'route', route: { operation: 'CancelTask' } });
    expect(matchV03Route('GET', '/v1/tasks/x/pushNotificationConfigs/c')).toMatchObject({
      route: { operation: 'GetTaskPushNotificationConfig' },
      params: { id: 'x', configId: 'c' },
    });
    expect(matchV03Route('GET', '/v1/card')).toMatchObject({ route: { operation: 'GetExtendedAgentCard' } });
    expect(matchV03Route('GET', '/t1/v1/card')).toEqual({ kind: 'not-found' });
    expect(matchV03Route('GET', '/v1/tasks')).toEqual({ kind: 'not-found' });
    expect(matchV03Route('PUT', '/v1/tasks/x:subscribe')).toEqual({ kind: 'wrong-verb', allow: ['GET', 'POST'] });
  });

  it('builds resource names from the path for the strict a2a.v1 decoder', () => {
    const route = V03_REST_ROUTES.find((r) => r.operation === 'GetTask')!;
    expect(buildRequestJson(route.requestType, route.pathFields({ id: 'x' }), new URLSearchParams('historyLength=2'), undefined, true)).toEqual({
      name: 'tasks/x',
      historyLength: 2,
    });
  });
});
