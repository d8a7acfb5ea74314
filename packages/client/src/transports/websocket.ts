import { fromJsonRpcError, type StreamOperation, type UnaryOperation } from '@a2a-polyglot/core';
import { decodeStreamEvent, decodeUnaryResult } from '../decode.js';
import { notA2A } from '../failures.js';
import type { CallOptions, ClientEvent, StreamOptions, Transport, TransportFactory } from '../transport.js';
import { raceSignal, startDeadline } from './call-deadline.js';
import { type Frame, FrameQueue, requestFrame } from './websocket-frames.js';
import type { WebSocketTransportOptions } from './websocket-options.js';
import { Socket } from './websocket-socket.js';

export {
  WEBSOCKET_AUTH_PREFIX,
  WEBSOCKET_SUBPROTOCOL,
  type WebSocketConstructor,
  type WebSocketLike,
  type WebSocketTransportOptions,
} from './websocket-options.js';

/**
 * The A2A WebSocket binding, client side: one socket, opened lazily and reopened after a
 * drop, carries every call as a JSON-RPC request frame (same methods and params as the
 * JSON-RPC binding), multiplexed by id. A stream is `streamStart` (or an error: refused),
 * then the event frames with their `seq`, up to `streamEnd` or an error; leaving a stream
 * early sends `cancelStream` (the task goes on). A dropped socket fails running calls with `Unavailable` tagged `cut`, which the
 * client treats as a cut stream and resumes with `resumeAfterSeq`.
 *
 * No Node imports: it runs in browsers with the global WebSocket.
 */
export class WebSocketTransport implements Transport {
  readonly binding = 'WEBSOCKET' as const;
  private nextId = 1;
  private socket: Promise<Socket> | undefined;

  constructor(private readonly options: WebSocketTransportOptions) {}

  async unary<Req, Res>(op: UnaryOperation<Req, Res>, request: Req, options: CallOptions = {}): Promise<Res> {
    const what = `${op.name} at ${this.options.url}`;
    const deadline = startDeadline(what, options);
    try {
      const socket = await deadline.race(this.connect());
      const id = this.nextId++;
      const frame = await deadline.race(
        new Promise<Frame>((resolve, reject) => {
          socket.listen(id, { frame: resolve, closed: reject });
          socket.send(requestFrame(id, op.name, op.request.toJSON(request), options.headers));
        }).finally(() => socket.forget(id)),
      );
      if (frame.error !== undefined) throw fromJsonRpcError(frame.error as Frame);
      if (!('result' in frame)) throw notA2A(`${what}: the answer has neither result nor error`);
      return decodeUnaryResult(op as UnaryOperation<unknown, Res>, frame.result);
    } finally {
      deadline.dispose();
    }
  }

  stream<Req>(op: StreamOperation<Req>, request: Req, options: StreamOptions = {}): AsyncIterable<ClientEvent> {
    return { [Symbol.asyncIterator]: () => this.openStream(op, request, options) };
  }

  /** Closes the socket; running calls fail with `Unavailable`. Later calls open a new socket. */
  async close(): Promise<void> {
    const socket = this.socket;
    this.socket = undefined;
    if (socket) (await socket.catch(() => undefined))?.close(1000, 'client closed');
  }

  private async *openStream<Req>(op: StreamOperation<Req>, request: Req, options: StreamOptions): AsyncGenerator<ClientEvent> {
    const what = `${op.name} at ${this.options.url}`;
    const deadline = startDeadline(what, options);
    const queue = new FrameQueue();
    let socket: Socket | undefined;
    let id = 0;
    let ended = false;
    try {
      socket = await deadline.race(this.connect());
      id = this.nextId++;
      socket.listen(id, queue);
      const extra = options.resumeAfterSeq === undefined ? {} : { resumeAfterSeq: options.resumeAfterSeq };
      socket.send({ ...requestFrame(id, op.name, op.request.toJSON(request), options.headers), ...extra });
      // The deadline covers opening: until streamStart (or the refusal) arrives.
      const start = await deadline.race(queue.next());
      deadline.dispose();
      if (start.error !== undefined) {
        ended = true;
        throw fromJsonRpcError(start.error as Frame);
      }
      if (start.streamStart !== true) throw notA2A(`${what}: the stream did not begin with streamStart`);
      for (;;) {
        const frame = await raceSignal(queue.next(), options.signal, what);
        if (frame.error !== undefined) {
          ended = true;
          throw fromJsonRpcError(frame.error as Frame);
        }
        if (frame.streamEnd === true) {
          ended = true;
          return;
        }
        if (!('result' in frame)) throw notA2A(`${what}: a stream frame has neither result, error nor streamEnd`);
        yield { seq: typeof frame.seq === 'number' ? frame.seq : undefined, event: decodeStreamEvent(frame.result) };
      }
    } finally {
      deadline.dispose();
      if (socket && id) {
        socket.forget(id);
        if (!ended) socket.send({ jsonrpc: '2.0', id, cancelStream: true });
      }
    }
  }

  /**
   * The open socket, opening one if there is none or the last one dropped. Concurrent calls
   * share one opening; when it fails they all fail, and the next call tries again.
   */
  private connect(): Promise<Socket> {
    const current = this.socket;
    if (current) return current.then((s) => (s.open ? s : this.fresh(current)));
    return this.fresh(undefined);
  }

  private fresh(previous: Promise<Socket> | undefined): Promise<Socket> {
    if (this.socket && this.socket !== previous) return this.connect();
    const opening = Socket.open(this.options);
    this.socket = opening;
    const forget = () => {
      if (this.socket === opening) this.socket = undefined;
    };
    opening.then((s) => s.onClose(forget), forget);
    return opening;
  }
}

/** {@link TransportFactory} of the WebSocket binding, with the settings a card cannot give (WebSocket class, token). */
export function webSocketTransportFactory(options: Omit<WebSocketTransportOptions, 'url'> = {}): TransportFactory {
  return ({ agentInterface }) => new WebSocketTransport({ ...options, url: agentInterface.url });
}
