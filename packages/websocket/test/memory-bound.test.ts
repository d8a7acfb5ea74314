import { eventStreamFrom, interceptOperation, RequestHandler, silentLogger } from '@a2a-polyglot/core';
import { EndlessSource } from '@a2a-polyglot/testing';
import type { StreamResponse } from '@a2a-polyglot/model';
import { waitFor, waitForSteady, Gates, Peer, sendParams, startWsServer, testCard, scriptedAgent } from './helpers.js';

const PAD = 'x'.repeat(16 * 1024);
const bigEvent: StreamResponse = {
  payload: {
    $case: 'message',
    value: {
      messageId: 'm',
      contextId: '',
      taskId: '',
      role: 2,
      parts: [{ content: { $case: 'text', value: PAD }, metadata: undefined, filename: '', mediaType: '' }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
  },
};
/** Size of one event frame on the wire (the pad dominates). */
const FRAME_BYTES = PAD.length + 512;

/** A handler whose stream never ends (`source` counts how far it was pulled). */
function endless(): { handler: RequestHandler; source: EndlessSource } {
  const source = new EndlessSource(bigEvent);
  const interceptors = [interceptOperation('SendStreamingMessage', async () => eventStreamFrom(source))];
  return { handler: new RequestHandler({ card: testCard(), executor: scriptedAgent(new Gates()), logger: silentLogger, interceptors }), source };
}

describe('memory bound: a client that does not read', () => {
  it('keeps the server-side send buffer under the high-water mark, pausing the stream at its cursor, and resumes when the client reads', async () => {
    const highWaterMark = 256 * 1024;
    const { handler, source } = endless();
    const s = await startWsServer({ handler, highWaterMark, stallTimeoutMs: 60_000 });
    const peer = await Peer.connect(s.wsUrl);
    try {
      peer.ws.pause(); // stop reading: the TCP window and then the kernel buffers fill up
      peer.request('SendStreamingMessage', sendParams('endless'));
      let maxSeen = 0;
      const sampler = setInterval(() => {
        for (const stats of s.binding.stats()) maxSeen = Math.max(maxSeen, stats.bufferedAmount);
      }, 2);
      await waitForSteady(() => source.pulled, { what: 'the producer to stop' });
      clearInterval(sampler);
      const [stats] = s.binding.stats();
      // The bound: the high-water mark plus the one frame that crossed it.
      expect(stats!.peakBufferedAmount).toBeLessThanOrEqual(highWaterMark + FRAME_BYTES);
      expect(maxSeen).toBeLessThanOrEqual(highWaterMark + FRAME_BYTES);
      expect(stats!.bufferedAmount).toBeGreaterThan(highWaterMark / 2); // it really is backed up
      expect(source.closed).toBe(false); // paused, not dropped
      const pausedAt = source.pulled;
      peer.ws.resume();
      await waitFor(() => source.pulled > pausedAt + 100);
    } finally {
      peer.close();
      await waitFor(() => source.closed);
      await s.close();
    }
  });

  it('closes a socket whose buffer stays above the mark longer than stallTimeoutMs; other sockets go on', async () => {
    const { handler, source } = endless();
    const s = await startWsServer({ handler, highWaterMark: 64 * 1024, stallTimeoutMs: 300, closeTimeoutMs: 200 });
    const stuck = await Peer.connect(s.wsUrl);
    const other = await Peer.connect(s.wsUrl);
    try {
      stuck.ws.pause();
      stuck.request('SendStreamingMessage', sendParams('endless'));
      await waitFor(() => s.binding.stats().length === 1, { timeoutMs: 10_000 }); // the stuck socket was dropped
      expect(source.closed).toBe(true);
      expect((await other.answer(other.request('ListTasks', {}))).result).toBeDefined();
    } finally {
      stuck.close();
      other.close();
      await s.close();
    }
  });
});
