import type { SseEvent } from '@a2a-polyglot/sse';
import { BridgeError, openUpstream, readUpstreamSse } from '../src/index.js';
import { upstreamPause, sseHead, startFakeUpstream, type FakeUpstream } from './fake-upstream.js';

const started: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((u) => u.close()));
});

/** Serves `writes` (with pauses) as an event stream and reads it back through readUpstreamSse. */
async function read(writes: Array<string | number>, idleTimeoutMs = 2000): Promise<SseEvent[]> {
  const upstream = await startFakeUpstream({
    'GET /sse': async (_req, res) => {
      sseHead(res);
      for (const w of writes) {
        if (typeof w === 'number') await upstreamPause(w);
        else res.write(w);
      }
      res.end();
    },
  });
  started.push(upstream);
  const up = await openUpstream({ bridge: 'test', url: `${upstream.url}/sse`, method: 'GET', signal: new AbortController().signal, timeoutMs: 2000, fetch });
  const frames: SseEvent[] = [];
  for await (const f of readUpstreamSse(up, { bridge: 'test', idleTimeoutMs })) frames.push(f);
  return frames;
}

describe('readUpstreamSse', () => {
  it('parses names, ids, multi-line data and comments, across LF, CRLF and CR line ends', async () => {
    const frames = await read(['event: a\r\nid: 1\r\ndata: x\r\ndata: y\r\n\r\n', ': keepalive\n\n', 'data: z\r', '\rdata:no-space\n\n']);
    expect(frames).toEqual([
      { event: 'a', data: 'x\ny', id: '1', ownId: '1' },
      { event: undefined, data: 'z', id: '1' },
      { event: undefined, data: 'no-space', id: '1' },
    ]);
  });

  it('handles a CRLF split between two writes, and a final frame without its blank line', async () => {
    const frames = await read(['data: one\r', 5, '\n\r\n', 'data: [DONE]']);
    expect(frames.map((f) => f.data)).toEqual(['one', '[DONE]']);
  });

  it('rejects a line that is not an SSE field', async () => {
    await expect(read(['data: ok\n\n', '<html>oops</html>\n'])).rejects.toThrow(
      new BridgeError('The test upstream sent a malformed event stream (unexpected line "<html>oops</html>")'),
    );
  });

  it('gives up after idleTimeoutMs of silence; keep-alive comments count as activity', async () => {
    await expect(read(['data: a\n\n', 200, 'data: b\n\n'], 80)).rejects.toThrow('The test upstream sent nothing for 80 ms');
    const kept = await read(['data: a\n\n', 40, ': ping\n\n', 40, ': ping\n\n', 40, 'data: b\n\n'], 120);
    expect(kept.map((f) => f.data)).toEqual(['a', 'b']);
  });
});
