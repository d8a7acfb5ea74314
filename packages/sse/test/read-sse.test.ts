import { readSse, SseError, type ReadSseOptions, type SseEvent } from '../src/index.js';
import { chunkings, SSE_VECTORS, stream } from './vectors.js';

async function collect(body: AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>, options?: ReadSseOptions): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const e of readSse(body, options)) out.push(e);
  return out;
}

/** A body that sends `chunks`, then stays open without a byte until cancelled. */
function hanging(chunks: string[]): { body: ReadableStream<Uint8Array>; cancelled: Promise<void> } {
  let cancelled!: () => void;
  const done = new Promise<void>((r) => (cancelled = r));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
    },
    cancel: () => cancelled(),
  });
  return { body, cancelled: done };
}

describe('readSse against the shared SSE vectors', () => {
  for (const vector of SSE_VECTORS) {
    for (const { how, chunks } of chunkings(vector)) {
      it(`${vector.name} (${how})`, async () => {
        const events = await collect(stream(chunks));
        expect(events.map(({ ownId: _own, ...spec }) => spec)).toEqual(vector.events);
      });
    }
  }
});

describe('readSse', () => {
  it('reads a fetch body (ReadableStream) and text chunks alike', async () => {
    expect(await collect(new Response('id: 1\ndata: a\n\n').body!)).toEqual([{ data: 'a', id: '1', ownId: '1' }]);
    async function* text() {
      yield 'data: ';
      yield 'x\n\n';
    }
    expect(await collect(text())).toEqual([{ data: 'x' }]);
  });

  it('tells the id an event carried from the last event ID it inherited', async () => {
    const events = await collect(stream([new TextEncoder().encode('id: 3\ndata: a\n\ndata: b\n\n')]));
    expect(events).toEqual([
      { data: 'a', id: '3', ownId: '3' },
      { data: 'b', id: '3' },
    ]);
  });

  it('delivers a trailing unterminated event only when asked', async () => {
    const text = ['data: one\n\n', 'data: [DONE]'];
    async function* body() {
      yield* text;
    }
    expect((await collect(body())).map((e) => e.data)).toEqual(['one']);
    expect((await collect(body(), { dispatchUnterminated: true })).map((e) => e.data)).toEqual(['one', '[DONE]']);
    async function* crEnded() {
      yield 'data: x\r';
    }
    expect((await collect(crEnded(), { dispatchUnterminated: true })).map((e) => e.data)).toEqual(['x']);
  });

  it('bounds one event and one unfinished line', async () => {
    const big = (text: string) =>
      (async function* () {
        yield text;
      })();
    await expect(collect(big(`data: ${'x'.repeat(32)}\n`), { maxEventChars: 16 })).rejects.toThrow(
      new SseError('too-large', 'a server-sent event exceeded 16 characters'),
    );
    await expect(collect(big(`data: ${'x'.repeat(32)}`), { maxEventChars: 16 })).rejects.toMatchObject({ failure: 'too-large' });
    await expect(collect(big('data: ok\n\n'), { maxEventChars: 16 })).resolves.toEqual([{ data: 'ok' }]);
  });

  it('rejects unknown lines only when asked', async () => {
    const garbage = () =>
      (async function* () {
        yield 'data: ok\n\n<html>oops</html>\n';
      })();
    expect(await collect(garbage())).toEqual([{ data: 'ok' }]);
    const seen: SseEvent[] = [];
    await expect(
      (async () => {
        for await (const e of readSse(garbage(), { rejectUnknownLines: true })) seen.push(e);
      })(),
    ).rejects.toThrow(new SseError('malformed', 'unexpected line "<html>oops</html>"'));
    expect(seen).toEqual([{ data: 'ok' }]);
  });

  it('hands comments and retry values to hooks', async () => {
    const comments: string[] = [];
    const retries: number[] = [];
    async function* body() {
      yield ': ping\n\nretry: 250\n:\n\n';
    }
    await collect(body(), { onComment: (c) => comments.push(c), onRetry: (ms) => retries.push(ms) });
    expect(comments).toEqual(['ping', '']);
    expect(retries).toEqual([250]);
  });

  it('fails an idle stream and releases the body', async () => {
    const { body, cancelled } = hanging(['data: a\n\n']);
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const e of readSse(body, { idleTimeoutMs: 30 })) seen.push(e.data);
      })(),
    ).rejects.toThrow(new SseError('idle', 'the stream sent nothing for 30 ms'));
    expect(seen).toEqual(['a']);
    await cancelled;
  });

  it('stops on abort with the abort reason, and on break, releasing the body either way', async () => {
    const aborted = hanging([]);
    const controller = new AbortController();
    const reading = collect(aborted.body, { signal: controller.signal });
    controller.abort(new Error('enough'));
    await expect(reading).rejects.toThrow('enough');
    await aborted.cancelled;

    const broken = hanging(['data: a\n\ndata: b\n\n']);
    for await (const e of readSse(broken.body)) {
      expect(e.data).toBe('a');
      break;
    }
    await broken.cancelled;
  });

  it('passes a transport error through unchanged', async () => {
    const cut = new Error('socket hang up');
    async function* body() {
      yield 'data: a\n\n';
      throw cut;
    }
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const e of readSse(body())) seen.push(e.data);
      })(),
    ).rejects.toBe(cut);
    expect(seen).toEqual(['a']);
  });
});
