import { WebSocket } from 'ws';
import { startA2AServer } from '@a2a-polyglot/server';
import { SUBPROTOCOL, WEBSOCKET_BINDING_URI } from '@a2a-polyglot/websocket';
import {
  DEFAULT_HEADERS,
  DriverFailure,
  failed,
  mergeHeaders,
  type Binding,
  type CallOptions,
  type CallResult,
  type Driver,
  type DriverStream,
  type OpenResult,
  type ProbeKind,
  type StreamItem,
} from '../driver.js';
import { fetchAgentCard, WIRE_VIOLATION, wireViolation } from './http-common.js';
import { ItemQueue } from './item-queue.js';
import { envelopeAnswer, envelopeEvent, type Envelope as Frame } from './jsonrpc-envelope.js';

/**
 * The frames of one request id (or, for `null`, errors the server could not tie to a
 * request), in order; a failure (the socket closed) is delivered after the frames before it.
 */
type FrameQueue = ItemQueue<Frame>;

/**
 * The WebSocket driver, written from the binding's README: one socket (subprotocol `a2a.v1`)
 * for the whole run, every operation a JSON-RPC request frame multiplexed by id; service
 * parameters (A2A-Version, credentials) travel per message in `serviceParams`, so a step can
 * omit the version. Unary answers are JSON-RPC responses; a stream is `streamStart` (or an
 * error response: refused before it opened), `result` frames with `seq`, then `streamEnd`
 * or an error response; the client cut is `cancelStream`.
 */
export class WebSocketDriver implements Driver {
  readonly binding = 'websocket';
  private nextId = 1;
  private readonly inboxes = new Map<number | null, FrameQueue>();

  private constructor(
    private readonly ws: WebSocket,
    private readonly wsUrl: string,
    private readonly cardUrl: string,
    private readonly onClose: () => Promise<void>,
  ) {
    ws.on('message', (data, isBinary) => this.onFrame(isBinary ? undefined : data.toString()));
    ws.on('close', (code) => this.failAll(new DriverFailure(WIRE_VIOLATION, `the socket closed (code ${code})`)));
    ws.on('error', () => undefined);
  }

  /** Opens the socket; resolves once the subprotocol was selected. */
  static async connect(wsUrl: string, cardUrl: string, onClose: () => Promise<void>): Promise<WebSocketDriver> {
    const ws = new WebSocket(wsUrl, [SUBPROTOCOL]);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => (ws.protocol === SUBPROTOCOL ? resolve() : reject(new Error(`subprotocol ${ws.protocol} selected`))));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
    return new WebSocketDriver(ws, wsUrl, cardUrl, onClose);
  }

  async call(operation: string, request: unknown, options?: CallOptions): Promise<CallResult> {
    try {
      const id = this.nextId++;
      const queue = this.subscribe(id);
      this.send(this.request(id, operation, request, options));
      const frame = await nextFrame(queue);
      this.inboxes.delete(id);
      return envelopeAnswer(frame, id);
    } catch (error) {
      return failed(error);
    }
  }

  async open(operation: string, request: unknown, options?: CallOptions): Promise<OpenResult> {
    try {
      const id = this.nextId++;
      const queue = this.subscribe(id);
      const resume = options?.resumeAfterSeq === undefined ? {} : { resumeAfterSeq: options.resumeAfterSeq };
      this.send({ ...this.request(id, operation, request, options), ...resume });
      const first = await nextFrame(queue);
      if (first.streamStart === true && first.id === id) return { ok: true, stream: this.driverStream(id, queue) };
      this.inboxes.delete(id);
      if ('error' in first) {
        const answer = envelopeAnswer(first, id);
        return answer.ok ? wireViolation(`${operation} answered a plain result instead of a stream`) : answer;
      }
      return wireViolation(`${operation} answered ${JSON.stringify(first).slice(0, 200)} instead of streamStart or an error`);
    } catch (error) {
      return failed(error);
    }
  }

  async probe(kind: ProbeKind): Promise<CallResult> {
    try {
      if (kind === 'unknown-method') return await this.call('NoSuchMethod', {});
      const queue = this.subscribe(null);
      this.ws.send('{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{');
      const frame = await nextFrame(queue);
      this.inboxes.delete(null);
      return envelopeAnswer(frame, null);
    } catch (error) {
      return failed(error);
    }
  }

  /** Discovery is HTTP for every binding; the card must list this socket under the binding URI. */
  agentCard(): Promise<CallResult> {
    return fetchAgentCard(this.cardUrl, { protocolBinding: WEBSOCKET_BINDING_URI, url: this.wsUrl });
  }

  async close(): Promise<void> {
    this.ws.terminate();
    await this.onClose();
  }

  private request(id: number, method: string, params: unknown, options: CallOptions | undefined): Frame {
    return { jsonrpc: '2.0', id, method, params, serviceParams: mergeHeaders({ ...DEFAULT_HEADERS }, options?.headers) };
  }

  private send(frame: Frame): void {
    if (this.ws.readyState !== WebSocket.OPEN) throw new DriverFailure(WIRE_VIOLATION, 'the socket is closed');
    this.ws.send(JSON.stringify(frame));
  }

  private subscribe(id: number | null): FrameQueue {
    const queue: FrameQueue = new ItemQueue<Frame>();
    this.inboxes.set(id, queue);
    return queue;
  }

  private onFrame(text: string | undefined): void {
    let frame: unknown;
    try {
      frame = text === undefined ? undefined : JSON.parse(text);
    } catch {
      frame = undefined;
    }
    if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
      this.failAll(new DriverFailure(WIRE_VIOLATION, `the server sent a frame that is not a JSON object: ${String(text).slice(0, 200)}`));
      return;
    }
    const id = (frame as Frame).id;
    const inbox = this.inboxes.get(typeof id === 'number' || id === null ? id : NaN);
    inbox?.push(frame as Frame);
  }

  private failAll(error: Error): void {
    for (const inbox of this.inboxes.values()) inbox.end(error);
  }

  /** Frames of stream `id` as a DriverStream; `close()` is the client cut (`cancelStream`). */
  private driverStream(id: number, queue: FrameQueue): DriverStream {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      this.inboxes.delete(id);
    };
    return {
      close: () => {
        if (done) return;
        finish();
        if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, cancelStream: true }));
        queue.end(new StreamCut());
      },
      [Symbol.asyncIterator]: async function* (this: void): AsyncGenerator<StreamItem> {
        try {
          for (;;) {
            const next = await queue.next();
            if (next.done) return;
            const frame = next.value;
            if (frame.streamEnd === true) return;
            envelopeEvent(frame, id, 'stream frame');
            const seq = frame.seq;
            if (seq !== undefined && !(typeof seq === 'number' && Number.isSafeInteger(seq) && seq > 0))
              throw new DriverFailure(WIRE_VIOLATION, `stream frame seq ${JSON.stringify(seq)} is not a positive integer`);
            yield { seq: seq as number | undefined, event: frame.result };
          }
        } catch (error) {
          if (error instanceof StreamCut) return;
          throw error;
        } finally {
          finish();
        }
      },
    };
  }
}

/** Thrown into a stream's queue by the client cut: the iterator ends quietly. */
class StreamCut extends Error {}

/** The next frame of a request that is not a stream (its queue is never cut, only failed). */
async function nextFrame(queue: FrameQueue): Promise<Frame> {
  const next = await queue.next();
  if (next.done) throw new DriverFailure(WIRE_VIOLATION, 'the answer queue ended without a frame');
  return next.value;
}

/** The WebSocket binding: a fresh `@a2a-polyglot/server` with `websocket: true`, socket at `/a2a/ws`. */
export const webSocketBinding: Binding = {
  name: 'websocket',
  async start(handler) {
    const server = await startA2AServer({ handler, basePath: '/a2a', host: '127.0.0.1', port: 0, websocket: { heartbeatMs: 0 } });
    try {
      return await WebSocketDriver.connect(`${server.url.replace('http://', 'ws://')}/a2a/ws`, `${server.url}/.well-known/agent-card.json`, () =>
        server.close(),
      );
    } catch (error) {
      await server.close();
      throw error;
    }
  },
};
