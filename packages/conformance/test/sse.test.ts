import { parseSse, type SseEvent } from '../src/index.js';
import { chunkings, SSE_VECTORS, stream } from '../../sse/test/vectors.js';

async function parse(chunks: string[]): Promise<SseEvent[]> {
  async function* source() {
    for (const c of chunks) yield new TextEncoder().encode(c);
  }
  const out: SseEvent[] = [];
  for await (const e of parseSse(source())) out.push(e);
  return out;
}

describe('the oracle parseSse against the shared SSE vectors', () => {
  for (const vector of SSE_VECTORS) {
    for (const { how, chunks } of chunkings(vector)) {
      it(`${vector.name} (${how})`, async () => {
        const events: SseEvent[] = [];
        for await (const e of parseSse(stream(chunks))) events.push(e);
        // The vectors leave out what is undefined (the default type, an empty last event ID).
        expect(events.map(({ event, data, id }) => ({ ...(event !== undefined && { event }), data, ...(id !== undefined && { id }) }))).toEqual(vector.events);
      });
    }
  }
});

describe('parseSse', () => {
  it('reads id, event and data fields and dispatches on a blank line', async () => {
    expect(await parse(['id: 1\ndata: {"a":1}\n\nevent: error\ndata: x\n\n'])).toEqual([
      { event: undefined, data: '{"a":1}', id: '1' },
      { event: 'error', data: 'x', id: '1' },
    ]);
  });

  it('accepts CRLF and bare CR, even with a CRLF pair split across chunks', async () => {
    const events = await parse(['id: 7\r', '\ndata: a\r\n\r', '\ndata: b\r\rdata: c\n\n']);
    expect(events.map((e) => [e.id, e.data])).toEqual([
      ['7', 'a'],
      ['7', 'b'],
      ['7', 'c'],
    ]);
  });

  it('ignores comments and unknown fields, joins multi-line data, and drops an unterminated event', async () => {
    const events = await parse([': ping\n\n', 'retry: 10\nfoo: bar\ndata: one\ndata:two\n\n', 'data: cut off']);
    expect(events).toEqual([{ event: undefined, data: 'one\ntwo', id: undefined }]);
  });

  it('handles lines and multi-byte characters split anywhere', async () => {
    const text = 'data: {"t":"h\u00e9llo \u2713"}\n\n';
    const bytes = new TextEncoder().encode(text);
    async function* byteByByte() {
      for (const b of bytes) yield new Uint8Array([b]);
    }
    const out: SseEvent[] = [];
    for await (const e of parseSse(byteByByte())) out.push(e);
    expect(out.map((e) => JSON.parse(e.data))).toEqual([{ t: 'h\u00e9llo \u2713' }]);
  });
});
