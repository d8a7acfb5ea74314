import { Duplex } from 'node:stream';
import {
  A2AError,
  A2AErrorCode,
  DELIVERY_TURN_FRAMES,
  type EventStream,
  interceptOperation,
  RequestHandler,
  type StreamOperation,
  silentLogger,
} from '@a2a-polyglot/core';
import { SessionRequest } from '@a2a-polyglot/model/session';
import { Gates, ReadySource, TurnProbe, waitFor } from '@a2a-polyglot/testing';
import { Metadata, type ServerWritableStream } from '@grpc/grpc-js';
import { type SessionCall, ServerSession } from '../src/session/server-session.js';
import type { ServedRpc } from '../src/served-rpc.js';
import { EncodedRequest } from '../src/safe-decode.js';
import { type OpenStreams, serveStream } from '../src/stream-pump.js';
import { testCard, scriptedAgent } from './helpers.js';

/**
 * The gRPC delivery loops against a source whose events are always ready and a call that
 * takes (flushes) every write at once: then neither side ever waits on I/O, and only the loop
 * itself can let the event loop turn or stop. The source's fuse ends a loop that does
 * neither, so the test fails on the counts instead of hanging.
 */

/** A grpc-js-like server call over a Node stream whose writes complete synchronously. */
interface FakeCall extends Duplex {
  request: unknown;
  metadata: Metadata;
  cancelled: boolean;
  written: number;
  ended: boolean;
  sendMetadata(md: Metadata): void;
  getPeer(): string;
  getAuthContext(): Record<string, never>;
  /** What grpc-js does when the client cancels or the stream is lost: flag, event, destroy. */
  cancel(): void;
}

function fakeCall(): FakeCall {
  const call = new Duplex({
    objectMode: true,
    read() {},
    write(_chunk, _encoding, callback) {
      call.written++;
      callback();
    },
  }) as FakeCall;
  call.on('error', () => undefined);
  return Object.assign(call, {
    request: new EncodedRequest(Buffer.alloc(0), () => ({})),
    metadata: new Metadata(),
    cancelled: false,
    written: 0,
    ended: false,
    sendMetadata: () => undefined,
    getPeer: () => '127.0.0.1:1',
    getAuthContext: () => ({}),
    cancel() {
      call.cancelled = true;
      call.emit('cancelled', 'cancelled');
      call.destroy();
    },
    // grpc-js ends a call with its trailers (status), not with a message: only note it.
    end: (() => {
      call.ended = true;
      return call;
    }) as Duplex['end'],
  });
}

function handler(): RequestHandler {
  return new RequestHandler({ card: testCard(), executor: scriptedAgent(new Gates()), logger: silentLogger });
}

/** serveStream of one SendStreamingMessage call over `source`. */
function serve(source: ReadySource, call: FakeCall, open: OpenStreams = new Set()): Promise<void> {
  const op = { kind: 'stream', name: 'SendStreamingMessage', open: async () => source as EventStream } as unknown as StreamOperation;
  const rpc = {
    route: { op, toCore: (request: unknown) => request, fromCore: (event: unknown) => event },
    admit: (call: { request: EncodedRequest }) => ({ handler: handler(), coreRequest: call.request.decode(), addressCharged: false }),
    dialect: { route: () => undefined },
    logger: silentLogger,
  } as unknown as ServedRpc;
  return serveStream(op, rpc, { highWater: 16, stallTimeoutMs: 0 }, open, call as unknown as ServerWritableStream<EncodedRequest, unknown>);
}

describe('gRPC server stream: always-ready source', () => {
  it.each([1, 500])('lets the event loop turn at least every DELIVERY_TURN_FRAMES frames (batches of %i)', async (batch) => {
    const call = fakeCall();
    const source = new ReadySource({ batch, fuse: 20 * DELIVERY_TURN_FRAMES });
    const frames = new TurnProbe(() => call.written);
    frames.start();
    await serve(source, call);
    frames.stop();
    expect(call.written).toBeGreaterThanOrEqual(20 * DELIVERY_TURN_FRAMES); // it did stream everything
    expect(call.ended).toBe(true);
    expect(frames.maxBetweenTurns).toBeLessThanOrEqual(DELIVERY_TURN_FRAMES);
  });

  it.each([
    ['the call is cancelled', (call: FakeCall) => call.cancel()],
    [
      'the server shuts down',
      (_call: FakeCall, open: OpenStreams) => {
        for (const stop of open) stop(new A2AError(A2AErrorCode.Unavailable, 'The server is shutting down'));
      },
    ],
  ])('stops at once when %s mid-batch: no frame is written for it', async (_what, kill) => {
    const call = fakeCall();
    const open: OpenStreams = new Set();
    let writtenAtKill = -1;
    const source = new ReadySource({
      batch: 100,
      onPull: (pulled) => {
        if (pulled !== 200) return;
        writtenAtKill = call.written;
        kill(call, open);
      },
    });
    await serve(source, call, open);
    expect(source.fused).toBe(false);
    expect(source.closed).toBe(true);
    expect(source.pulled).toBe(200);
    expect(writtenAtKill).toBe(100);
    expect(call.written).toBe(writtenAtKill);
  });
});

/** A handler whose streams are always-ready sources (`sources`, in the order opened). */
function readyHandler(onPull?: (pulled: number) => void): { h: RequestHandler; sources: ReadySource[] } {
  const sources: ReadySource[] = [];
  const ready = interceptOperation('SendStreamingMessage', async () => {
    const source = new ReadySource({ batch: 100, fuse: 20 * DELIVERY_TURN_FRAMES, onPull });
    sources.push(source);
    return source;
  });
  return { h: new RequestHandler({ card: testCard(), executor: scriptedAgent(new Gates()), logger: silentLogger, interceptors: [ready] }), sources };
}

function startSession(call: FakeCall, h: RequestHandler): ServerSession {
  return new ServerSession(
    call as unknown as SessionCall,
    () => ({ handler: h }),
    { maxOperations: 8, maxBufferedFrames: 32, maxFrameBytes: 4 * 1024 * 1024 },
    silentLogger,
    () => undefined,
  );
}

function openStream(call: FakeCall, id: string): void {
  call.emit('data', SessionRequest.fromPartial({ correlationId: id, operation: { $case: 'send', value: { streaming: true, request: {} } } }));
}

describe('gRPC session: always-ready sources', () => {
  it('lets the event loop turn at least every DELIVERY_TURN_FRAMES frames of an operation', async () => {
    const call = fakeCall();
    const { h, sources } = readyHandler();
    startSession(call, h);
    const frames = new TurnProbe(() => call.written);
    frames.start();
    openStream(call, 'a');
    await waitFor(() => sources[0]?.ended === true, { what: 'the stream to end' });
    await waitFor(() => call.written > 20 * DELIVERY_TURN_FRAMES, { what: 'its end frame' });
    frames.stop();
    expect(frames.maxBetweenTurns).toBeLessThanOrEqual(DELIVERY_TURN_FRAMES);
  });

  it('stops every operation at once when the call is cancelled mid-batch: no frame is written for it', async () => {
    const call = fakeCall();
    let writtenAtKill = -1;
    const { h, sources } = readyHandler((pulled) => {
      if (pulled !== 200) return;
      writtenAtKill = call.written;
      call.cancel();
    });
    const session = startSession(call, h);
    openStream(call, 'a');
    await waitFor(() => session.openOperations === 0, { what: 'the operation to be released' });
    const [source] = sources;
    expect(source!.fused).toBe(false);
    expect(source!.closed).toBe(true);
    expect(source!.pulled).toBe(200);
    expect(writtenAtKill).toBe(100);
    expect(call.written).toBe(writtenAtKill);
  });
});
