/**
 * The JSON-RPC binding over the runtime-free seam: a plain-object `HttpExchangeRequest` in, an
 * `HttpExchangeResult` out, no socket and no runtime request.
 */
import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { type HttpExchangeRequest, payloadTooLarge } from '@a2a-polyglot/http';
import { createJsonRpcExchangeHandler } from '../src/index.js';
import { echoHandler } from './helpers.js';

let nextId = 1;

function request(method: string, body: string, headers: Record<string, string> = {}): HttpExchangeRequest {
  const all: Record<string, string> = { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers };
  return {
    method,
    header: (name) => all[name.toLowerCase()],
    query: () => new URLSearchParams(),
    readBody: async (maxBytes) => {
      if (Buffer.byteLength(body) > maxBytes) throw payloadTooLarge(maxBytes);
      return body;
    },
    signal: () => new AbortController().signal,
  };
}

const send = (text: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: nextId++,
    method: 'SendMessage',
    params: { message: { messageId: `m-x-${nextId}`, role: 'ROLE_USER', parts: [{ text }] } },
  });

describe('createJsonRpcExchangeHandler', () => {
  const handler = echoHandler();
  const serve = createJsonRpcExchangeHandler(handler, { maxBodyBytes: 512 });
  afterAll(() => handler.shutdown(100));

  it('answers a SendMessage as a JSON body', async () => {
    const result = await serve(request('POST', send('plain object')));
    if (result.kind !== 'body') throw new Error('expected a body');
    expect(result.status).toBe(200);
    expect(result.contentType).toBe('application/json');
    expect(JSON.parse(result.body).result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('answers the HTTP-level refusals as the node binding does: 405, 415, 413', async () => {
    const wrongVerb = await serve(request('GET', ''));
    expect(wrongVerb).toMatchObject({ kind: 'body', status: 405, headers: { allow: 'POST' } });
    const wrongType = await serve(request('POST', send('x'), { 'content-type': 'text/plain' }));
    expect(wrongType).toMatchObject({ kind: 'body', status: 415 });
    const big = await serve(request('POST', send('x'.repeat(1000))));
    expect(big).toMatchObject({ kind: 'body', status: 413, headers: { connection: 'close' } });
    if (big.kind === 'body') expect(JSON.parse(big.body).error.data[0].reason).toBe('PAYLOAD_TOO_LARGE');
  });

  it('opens a stream for SendStreamingMessage, to be written by the runtime adapter', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'SendStreamingMessage',
      params: { message: { messageId: `m-x-${nextId}`, role: 'ROLE_USER', parts: [{ text: 'streamed' }] } },
    });
    const result = await serve(request('POST', body));
    if (result.kind !== 'sse') throw new Error('expected a stream');
    const frames: string[] = [];
    for (;;) {
      const batch = await result.stream.nextBatch();
      if (batch === undefined) break;
      for (const { event } of batch) frames.push(result.encode(event));
    }
    expect(frames.length).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(frames.at(-1)!).result.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    expect(result.errorFrame(new A2AError(A2AErrorCode.Internal))).toMatch(/^data: \{"jsonrpc":"2.0"/);
  });
});
