import { DELIVERY_TURN_FRAMES, type EventStream, interceptOperation, RequestHandler, silentLogger } from '@a2a-polyglot/core';
import type { JsonRpcStreamOutcome } from '@a2a-polyglot/jsonrpc';
import { ReadySource, TurnProbe, waitFor } from '@a2a-polyglot/testing';
import type { WebSocket } from 'ws';
import { Outbox } from '../src/outbox.js';
import { pumpStream } from '../src/stream-pump.js';
import { Gates, Peer, sendParams, startWsServer, testCard, scriptedAgent } from './helpers.js';

/**
 * The stream pump against a source whose events are always ready. Without a rule in the loop
 * these hang the process (the loop never waits on I/O); the source's fuse ends such a loop,
 * so a broken pump makes these tests fail on the counts instead of hanging.
 */

const OPEN = 1;
const CLOSING = 2;

/** A socket that takes every frame at once (its buffer never fills) and counts them. */
function fakeSocket(): { socket: WebSocket; sent: () => number; setState: (state: number) => void } {
  let sent = 0;
  const fake = { OPEN, readyState: OPEN, bufferedAmount: 0, send: () => void sent++ };
  return { socket: fake as unknown as WebSocket, sent: () => sent, setState: (state) => (fake.readyState = state) };
}

function outcome(stream: EventStream): JsonRpcStreamOutcome {
  return {
    kind: 'stream',
    id: 1,
    method: 'SendStreamingMessage',
    stream,
    encodeEvent: () => ({ jsonrpc: '2.0', id: 1, result: {} }),
    encodeEventText: (_event, seq) => `{"jsonrpc":"2.0","id":1,"result":{},"seq":${seq}}`,
    encodeError: () => ({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'x' } }),
  };
}

function outboxOn(socket: WebSocket): Outbox {
  return new Outbox(socket, { highWaterMark: 64 * 1024, stallTimeoutMs: 0, onStall: () => undefined });
}

describe('WebSocket stream pump: always-ready source', () => {
  it('stops at once when the socket is CLOSING (close event not yet delivered): no frame is encoded for a socket that drops it', async () => {
    const { socket, sent, setState } = fakeSocket();
    let closingAt = 0;
    const source = new ReadySource({
      onPull: (pulled) => {
        if (pulled === 10) {
          setState(CLOSING);
          closingAt = pulled;
        }
      },
    });
    await pumpStream(outcome(source), outboxOn(socket), silentLogger).done;
    expect(source.fused).toBe(false);
    expect(source.closed).toBe(true);
    expect(source.pulled).toBe(closingAt);
    expect(sent()).toBe(1 + 9); // streamStart and the events sent before the socket started closing
  });

  it.each([1, 500])('lets the event loop turn at least every DELIVERY_TURN_FRAMES frames (batches of %i)', async (batch) => {
    const { socket, sent } = fakeSocket();
    const source = new ReadySource({ batch, fuse: 20 * DELIVERY_TURN_FRAMES });
    const frames = new TurnProbe(sent);
    frames.start();
    await pumpStream(outcome(source), outboxOn(socket), silentLogger).done;
    frames.stop();
    expect(sent()).toBeGreaterThan(20 * DELIVERY_TURN_FRAMES); // it did stream everything
    expect(frames.maxBetweenTurns).toBeLessThanOrEqual(DELIVERY_TURN_FRAMES);
  });
});

/** A handler whose streams are always-ready sources (the fast agent, the long replay), in the order opened. */
function readyHandler(): { handler: RequestHandler; sources: ReadySource[] } {
  const sources: ReadySource[] = [];
  const ready = interceptOperation('SendStreamingMessage', async () => {
    const source = new ReadySource({ fuse: 100_000 });
    sources.push(source);
    return source;
  });
  return { handler: new RequestHandler({ card: testCard(), executor: scriptedAgent(new Gates()), logger: silentLogger, interceptors: [ready] }), sources };
}

describe('WebSocket binding: a client that closes while a fast stream runs', () => {
  it.each([
    ['closes normally (close handshake)', (peer: Peer) => peer.ws.close(1000)],
    ['drops the connection', (peer: Peer) => peer.ws.terminate()],
  ])('%s: the stream stops without running into the fuse, and the event loop keeps turning', async (_what, leave) => {
    const { handler, sources } = readyHandler();
    const s = await startWsServer({ handler, highWaterMark: 16 * 1024 });
    const peer = await Peer.connect(s.wsUrl);
    try {
      const id = peer.request('SendStreamingMessage', sendParams('fast'));
      await peer.until(() => peer.framesFor(id).some((f) => 'seq' in f));
      leave(peer);
      const [source] = sources;
      await waitFor(() => source!.ended, { what: 'the stream to stop' });
      expect(source!.fused).toBe(false);
      expect(source!.maxPullsBetweenTurns).toBeLessThanOrEqual(DELIVERY_TURN_FRAMES);
      await waitFor(() => s.binding.stats().length === 0, { what: 'the socket to go' });
    } finally {
      peer.ws.terminate();
      await s.close();
    }
  });
});
