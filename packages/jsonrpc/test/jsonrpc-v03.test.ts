import { callContext, type CallContext, type ProtocolVersion } from '@a2a-polyglot/core';
import { JsonRpcDispatcher, type JsonRpcOutcome } from '../src/index.js';
import { echoHandler } from './helpers.js';

const handler = echoHandler();
const send = { message: { kind: 'message', role: 'user', messageId: 'm', parts: [{ kind: 'text', text: 'hi' }] } };

/** A context factory that records the wire version the dispatcher asked for (no A2A-Version header: a v0.3 client). */
function recording(): { versions: Array<ProtocolVersion | undefined>; contextFor: (r: unknown, v?: ProtocolVersion) => CallContext } {
  const versions: Array<ProtocolVersion | undefined> = [];
  return { versions, contextFor: (_r, v) => (versions.push(v), callContext('JSONRPC', {}, { wireVersion: v })) };
}

function response(outcome: JsonRpcOutcome): any {
  if (outcome.kind !== 'response') throw new Error(`expected a response, got ${outcome.kind}`);
  return outcome.response;
}

describe('JsonRpcDispatcher with v0.3 method names', () => {
  const dispatcher = new JsonRpcDispatcher(handler, { v03Methods: true });

  it('calls the same operation with wireVersion 0.3 and answers in v0.3 form', async () => {
    const { versions, contextFor } = recording();
    const out = response(await dispatcher.dispatch({ jsonrpc: '2.0', id: 'a', method: 'message/send', params: send }, contextFor));
    expect(versions).toEqual(['0.3']);
    expect(out.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
  });

  it('turns a pre-stream failure into a stream whose one frame is the v0.3 error', async () => {
    const { contextFor } = recording();
    const outcome = await dispatcher.dispatch({ jsonrpc: '2.0', id: 7, method: 'tasks/resubscribe', params: { id: 'nope' } }, contextFor);
    if (outcome.kind !== 'stream') throw new Error('expected a stream');
    await expect(outcome.stream.nextBatch()).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
    expect(await outcome.stream.nextBatch()).toBeUndefined();
    expect(outcome.encodeError(new Error('hidden'))).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: expect.objectContaining({ code: -32603, message: 'Internal error' }),
    });
  });

  it('rejects a v0.3 streaming notification and answers nothing to a unary one', async () => {
    const { contextFor } = recording();
    expect(response(await dispatcher.dispatch({ jsonrpc: '2.0', method: 'message/stream', params: send }, contextFor)).error.code).toBe(-32600);
    expect((await dispatcher.dispatch({ jsonrpc: '2.0', method: 'tasks/get', params: { id: 'x' } }, contextFor)).kind).toBe('none');
  });

  it('serves v1.0 names unchanged beside them, and v0.3 names not at all when off', async () => {
    const v1 = response(
      await dispatcher.dispatch({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }, () => callContext('JSONRPC', { 'a2a-version': '1.0' })),
    );
    expect(v1.error.code).toBe(-32001);
    const off = new JsonRpcDispatcher(handler);
    const out = response(await off.dispatch({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'x' } }, () => callContext('JSONRPC', {})));
    expect(out.error).toMatchObject({ code: -32601, message: expect.stringContaining('call GetTask (A2A 1.0)') });
  });
});
