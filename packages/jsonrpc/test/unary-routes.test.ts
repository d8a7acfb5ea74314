import { callContext } from '@a2a-polyglot/core';
import { JsonRpcDispatcher, type JsonRpcOutcome, type JsonRpcResponse } from '../src/index.js';
import { echoHandler } from './helpers.js';

/**
 * A unary request reaches its operation by one of two routes (see V1JsonRpcDialect.call):
 * a single request with an id through the dispatcher's own method table, notifications and
 * batch entries through json-rpc-2.0. Both routes must answer alike.
 */
describe('JsonRpcDispatcher unary routes', () => {
  const dispatcher = new JsonRpcDispatcher(echoHandler());
  const ctx = () => callContext('JSONRPC', { 'a2a-version': '1.0' });
  const send = (text: string) => ({ message: { messageId: `m-${text}`, role: 'ROLE_USER', parts: [{ text }] } });

  async function single(request: object): Promise<JsonRpcResponse> {
    const outcome = await dispatcher.dispatch(request, ctx);
    if (outcome.kind !== 'response') throw new Error(`expected a response, got ${outcome.kind}`);
    return outcome.response;
  }

  async function batchOfOne(request: object): Promise<JsonRpcResponse> {
    const outcome = await dispatcher.dispatch([request], ctx);
    if (outcome.kind !== 'batch' || outcome.responses.length !== 1) throw new Error(`expected a batch of one, got ${JSON.stringify(outcome)}`);
    const [response] = outcome.responses;
    if (!response) throw new Error('expected one response');
    return response;
  }

  it.each([
    ['a result', { jsonrpc: '2.0', id: 'r', method: 'ListTasks', params: {} }],
    ['a capability error', { jsonrpc: '2.0', id: 'e', method: 'DeleteTaskPushNotificationConfig', params: { taskId: 't', id: 'c' } }],
    ['an operation error', { jsonrpc: '2.0', id: 7, method: 'GetTask', params: { id: 'nope' } }],
    ['invalid params', { jsonrpc: '2.0', id: 8, method: 'GetTask', params: { id: 5 } }],
    ['an unknown method (-32601)', { jsonrpc: '2.0', id: null, method: 'Nope' }],
    ['a v0.3 name this dispatcher does not serve (-32601)', { jsonrpc: '2.0', id: 9, method: 'tasks/get', params: { id: 'x' } }],
  ])('answers %s the same alone and in a batch', async (_case, request) => {
    const alone = await single(request);
    expect(alone.id).toBe(request.id);
    expect(await batchOfOne(request)).toEqual(alone);
  });

  it('answers an unknown method with -32601 and ErrorInfo', async () => {
    const response = await single({ jsonrpc: '2.0', id: 1, method: 'Nope' });
    expect(response).toMatchObject({ id: 1, error: { code: -32601, data: [expect.objectContaining({ reason: 'METHOD_NOT_FOUND' })] } });
  });

  it('answers nothing to a notification, even an unknown or failing one, but runs it', async () => {
    const outcomes: JsonRpcOutcome[] = await Promise.all([
      dispatcher.dispatch({ jsonrpc: '2.0', method: 'Nope' }, ctx),
      dispatcher.dispatch({ jsonrpc: '2.0', method: 'GetTask', params: { id: 'nope' } }, ctx),
      dispatcher.dispatch({ jsonrpc: '2.0', method: 'SendMessage', params: send('by notification') }, ctx),
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual(['none', 'none', 'none']);
    const listed = await single({ jsonrpc: '2.0', id: 'l', method: 'ListTasks', params: {} });
    expect(JSON.stringify(listed)).toContain('by notification');
  });

  it('leaves failing notifications out of a batch answer', async () => {
    const outcome = await dispatcher.dispatch(
      [
        { jsonrpc: '2.0', method: 'Nope' },
        { jsonrpc: '2.0', method: 'GetTask', params: { id: 'nope' } },
        { jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id: 'nope' } },
      ],
      ctx,
    );
    expect(outcome).toMatchObject({ kind: 'batch', responses: [{ id: 2, error: { code: -32001 } }] });
  });
});
