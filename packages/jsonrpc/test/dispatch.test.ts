import { callContext } from '@a2a-polyglot/core';
import { JsonRpcDispatcher, dispatchJsonRpc, validateEnvelope, type JsonRpcOutcome } from '../src/index.js';
import { echoHandler } from './helpers.js';

const handler = echoHandler();
const ctx = () => callContext('WEBSOCKET', { 'a2a-version': '1.0' });
const send = (text: string) => ({ message: { messageId: `m-${text}`, role: 'ROLE_USER', parts: [{ text }] } });

function response(outcome: JsonRpcOutcome): any {
  if (outcome.kind !== 'response') throw new Error(`expected a response, got ${outcome.kind}`);
  return outcome.response;
}

describe('JsonRpcDispatcher (transport-independent)', () => {
  const dispatcher = new JsonRpcDispatcher(handler);

  it('dispatches a unary call: decode → call → encode', async () => {
    const out = response(await dispatcher.dispatch({ jsonrpc: '2.0', id: 'a', method: 'SendMessage', params: send('hi') }, ctx));
    expect(out.id).toBe('a');
    expect(out.result.task.artifacts[0].parts[0].text).toBe('hi');
  });

  it('opens a stream and frames events and errors with the request id', async () => {
    const outcome = await dispatcher.dispatch({ jsonrpc: '2.0', id: 9, method: 'SendStreamingMessage', params: send('hi') }, ctx);
    if (outcome.kind !== 'stream') throw new Error('expected a stream');
    expect(outcome.method).toBe('SendStreamingMessage');
    const frames = [];
    for await (const { event } of outcome.stream) frames.push(outcome.encodeEvent(event));
    expect(frames.every((f) => f.id === 9 && f.jsonrpc === '2.0')).toBe(true);
    expect(Object.keys(frames[0]!.result as object)).toEqual(['task']);
    expect(outcome.encodeError(new Error('hidden'))).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: expect.objectContaining({ code: -32603, message: 'Internal error' }),
    });
  });

  it("writes each event's text as JSON.stringify of its response, with seq appended when > 0", async () => {
    for (const id of [9, 'id "quoted" é', null]) {
      const outcome = await dispatcher.dispatch({ jsonrpc: '2.0', id, method: 'SendStreamingMessage', params: send('hi "there"\n') }, ctx);
      if (outcome.kind !== 'stream') throw new Error('expected a stream');
      let seq = 0;
      for await (const { event } of outcome.stream) {
        expect(outcome.encodeEventText(event)).toBe(JSON.stringify(outcome.encodeEvent(event)));
        expect(outcome.encodeEventText(event, 0)).toBe(JSON.stringify(outcome.encodeEvent(event)));
        expect(outcome.encodeEventText(event, ++seq)).toBe(JSON.stringify({ ...outcome.encodeEvent(event), seq }));
      }
      expect(seq).toBeGreaterThan(0);
    }
  });

  it('answers pre-stream failures as a response, never a stream', async () => {
    const out = response(await dispatcher.dispatch({ jsonrpc: '2.0', id: 1, method: 'SubscribeToTask', params: { id: 'nope' } }, ctx));
    expect(out.error.code).toBe(-32001);
    const resume = response(
      await dispatcher.dispatch({ jsonrpc: '2.0', id: 2, method: 'SubscribeToTask', params: { id: 'nope' } }, ctx, { resumeAfterSeq: -1 }),
    );
    expect(resume.error.code).toBe(-32602);
  });

  it('returns nothing for notifications and an array for batches', async () => {
    expect((await dispatcher.dispatch({ jsonrpc: '2.0', method: 'ListTasks', params: {} }, ctx)).kind).toBe('none');
    const batch = await dispatcher.dispatch(
      [
        { jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} },
        { jsonrpc: '2.0', method: 'ListTasks' },
      ],
      ctx,
    );
    expect(batch.kind).toBe('batch');
    expect(batch.kind === 'batch' && batch.responses.map((r) => r.id)).toEqual([1]);
  });

  it('creates one context per request of a batch', async () => {
    const seen: unknown[] = [];
    await dispatcher.dispatch(
      [1, 2].map((id) => ({ jsonrpc: '2.0', id, method: 'ListTasks', params: {} })),
      (request) => {
        seen.push(request.id);
        return ctx();
      },
    );
    expect(seen.sort()).toEqual([1, 2]);
  });

  it('maps capability errors through the core table', async () => {
    const out = response(await dispatcher.dispatch({ jsonrpc: '2.0', id: 1, method: 'ListTaskPushNotificationConfigs', params: { taskId: 'x' } }, ctx));
    expect(out.error.code).toBe(-32003);
    expect(out.error.data[0].reason).toBe('PUSH_NOTIFICATION_NOT_SUPPORTED');
  });

  it('dispatchJsonRpc is the one-shot form', async () => {
    const out = response(await dispatchJsonRpc(handler, { jsonrpc: '2.0', id: 1, method: 'Nope' }, ctx));
    expect(out.error.code).toBe(-32601);
  });
});

describe('validateEnvelope', () => {
  it('accepts valid requests and normalises null params', () => {
    expect(validateEnvelope({ jsonrpc: '2.0', id: null, method: 'X', params: null })).toEqual({ ok: true, request: { jsonrpc: '2.0', id: null, method: 'X' } });
    expect(validateEnvelope({ jsonrpc: '2.0', method: 'X' })).toEqual({ ok: true, request: { jsonrpc: '2.0', method: 'X' } });
  });

  it.each([
    [[], null],
    [{ jsonrpc: '2.0', id: Number.POSITIVE_INFINITY, method: 'X' }, null],
    [{ jsonrpc: '2.0', id: [1], method: 'X' }, null],
    [{ jsonrpc: 2, id: 4, method: 'X' }, 4],
    [{ jsonrpc: '2.0', id: 's', method: '' }, 's'],
    [{ jsonrpc: '2.0', id: 's', method: 'X', params: 'p' }, 's'],
  ])('rejects %j as InvalidRequest with id %j', (value, id) => {
    const checked = validateEnvelope(value);
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.id).toBe(id);
      expect(checked.error.code).toBe('INVALID_REQUEST');
    }
  });
});
