/** The client's side of SSE: event numbers from `id:`, and stream failures worded as client errors. */
import { A2AErrorCode } from '@a2a-polyglot/core';
import { clientFailureOf } from '../src/index.js';
import type { OpenHttp } from '../src/http.js';
import { readOpenSse, seqOf } from '../src/sse.js';

/** An open exchange over a canned response body. */
function open(body: ReadableStream<Uint8Array>): OpenHttp & { closed: boolean } {
  const o = {
    closed: false,
    response: new Response(body),
    failure: () => undefined,
    fail: () => undefined,
    settle: () => undefined,
    close: () => {
      o.closed = true;
    },
  };
  return o;
}

function text(...chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
      controller.close();
    },
  });
}

async function read(o: OpenHttp, idleTimeoutMs?: number) {
  const out = [];
  for await (const e of readOpenSse(o, { what: 'test', ...(idleTimeoutMs !== undefined && { idleTimeoutMs }) })) out.push(e);
  return out;
}

describe('client SSE', () => {
  it('numbers an event by the id it carried, not by the last event ID it inherited', async () => {
    const o = open(text('id: 1\ndata: a\n\ndata: b\n\nid: 2\rdata: c\r\r'));
    const events = await read(o);
    expect(events.map((e) => [e.data, seqOf(e)])).toEqual([
      ['a', 1],
      ['b', undefined],
      ['c', 2],
    ]);
    expect(o.closed).toBe(true);
  });

  it('words silence as an idle client failure and closes the exchange', async () => {
    const o = open(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(': hi\n\n')) }));
    const failure = await read(o, 30).catch((e: unknown) => e);
    expect(clientFailureOf(failure)).toBe('idle');
    expect(failure).toMatchObject({ code: A2AErrorCode.DeadlineExceeded, message: 'test: the stream sent nothing for 30 ms' });
    expect(o.closed).toBe(true);
  });

  it('words a dropped connection as a cut', async () => {
    const o = open(new ReadableStream({ start: (c) => c.error(new Error('socket hang up')) }));
    const failure = await read(o).catch((e: unknown) => e);
    expect(clientFailureOf(failure)).toBe('cut');
    expect(failure).toMatchObject({ code: A2AErrorCode.Unavailable, message: 'test: the stream was cut (socket hang up)' });
  });
});
