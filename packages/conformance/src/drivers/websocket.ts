import { WebSocket } from 'ws';
import { fromJsonRpcError } from '@a2a-polyglot/core';
import { startA2AServer } from '@a2a-polyglot/server';
import { SUBPROTOCOL, WEBSOCKET_BINDING_URI } from '@a2a-polyglot/websocket';
import {
  DEFAULT_HEADERS,
  DriverFailure,
  failed,
  mergeHeaders,
  toDriverError,
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

type Frame = Record<string, unknown>;

/** Receives the frames of one request id (or, for `null`, errors the server could not tie to a request). */
interface Inbox {
  push(frame: Frame): void;
  fail(error: Error): void;
}

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
  private readonly inboxes = new Map<number | null, Inbox>();

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
      const frame = await queue.next();
      this.inboxes.delete(id);
      return unaryAnswer(frame, id);
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
      const first = await queue.next();
      if (first.streamStart === true && first.id === id) return { ok: true, stream: this.driverStream(id, queue) };
      this.inboxes.delete(id);
      if ('error' in first) {
        const answer = unaryAnswer(first, id);
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
      const frame = await queue.next();
      this.inboxes.delete(null);
      return unaryAnswer(frame, null);
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
    const queue = new FrameQueue();
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
    for (const inbox of this.inboxes.values()) inbox.fail(error);
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
        queue.fail(new StreamCut());
      },
      [Symbol.asyncIterator]: async function* (this: void): AsyncGenerator<StreamItem> {
        try {
          for (;;) {
            const frame = await queue.next();
            if (frame.streamEnd === true) return;
            const problem = envelopeProblem(frame, id);
            if (problem) throw new DriverFailure(WIRE_VIOLATION, `stream frame: ${problem}`);
            if ('error' in frame) throw fromJsonRpcError(frame.error as Frame);
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

/** The frames of one id, in order; a failure is delivered after the frames that came before it. */
class FrameQueue implements Inbox {
  private readonly frames: Frame[] = [];
  private failure: Error | undefined;
  private waiter: { resolve: (f: Frame) => void; reject: (e: Error) => void } | undefined;

  push(frame: Frame): void {
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w.resolve(frame);
    } else this.frames.push(frame);
  }

  fail(error: Error): void {
    this.failure ??= error;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w.reject(error);
    }
  }

  next(): Promise<Frame> {
    const frame = this.frames.shift();
    if (frame) return Promise.resolve(frame);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }
}

/** A unary answer: a JSON-RPC response with the request's id (any id for a parse error). */
function unaryAnswer(frame: Frame, id: number | null): CallResult {
  const problem = envelopeProblem(frame, id);
  if (problem) return wireViolation(problem);
  if ('error' in frame) return { ok: false, error: toDriverError(fromJsonRpcError(frame.error as Frame)) };
  return { ok: true, result: frame.result };
}

/** What is wrong with a JSON-RPC response frame, if anything. */
function envelopeProblem(frame: Frame, id: number | null): string | undefined {
  if (frame.jsonrpc !== '2.0') return 'jsonrpc member is not "2.0"';
  const hasResult = 'result' in frame;
  const hasError = 'error' in frame;
  if (hasResult === hasError) return 'a response needs exactly one of result and error';
  if (id !== null && frame.id !== id) return `response id ${JSON.stringify(frame.id)} does not echo request id ${id}`;
  return undefined;
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
