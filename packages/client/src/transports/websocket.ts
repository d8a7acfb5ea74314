import { A2AError, A2AErrorCode, fromJsonRpcError, type StreamOperation, type UnaryOperation } from '@a2a-polyglot/core';
import { decodeStreamEvent, decodeUnaryResult } from '../decode.js';
import { aborted, clientError, notA2A, timedOut } from '../failures.js';
import type { CallOptions, ClientEvent, StreamOptions, Transport, TransportFactory } from '../transport.js';

/**
 * The subprotocol of the A2A WebSocket binding (must equal `SUBPROTOCOL` of
 * `@a2a-polyglot/websocket`; a test checks it). Kept here so this file has no Node imports.
 */
export const WEBSOCKET_SUBPROTOCOL = 'a2a.v1';
/** Prefix of the credential subprotocol `a2a.auth.<base64url(token)>`. */
export const WEBSOCKET_AUTH_PREFIX = 'a2a.auth.';

/** The part of the WHATWG `WebSocket` this transport uses; browsers' and `ws`'s both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  readonly protocol: string;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** A `WebSocket` class: the browser global, or `WebSocket` from the `ws` package in Node. */
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => WebSocketLike;

/** Settings of {@link WebSocketTransport}. */
export interface WebSocketTransportOptions {
  /** The `ws://` / `wss://` URL of the card's WebSocket interface. */
  readonly url: string;
  /** The WebSocket class. Default: `globalThis.WebSocket` (browsers, Node ≥ 22). */
  readonly WebSocket?: WebSocketConstructor;
  /**
   * Bearer credential presented at upgrade as the `a2a.auth.<base64url>` subprotocol (the
   * server turns it into `Authorization: Bearer <token>`): browsers cannot set headers on a
   * WebSocket. A function is called for every new socket (token refresh).
   */
  readonly token?: string | (() => string | Promise<string>);
  /** A2A version sent as `?A2A-Version=` at upgrade. Default `1.0`. */
  readonly version?: string;
  /** Longest wait for the socket to open. Default 10000. */
  readonly connectTimeoutMs?: number;
}

const OPEN = 1;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

type Frame = Record<string, unknown>;
/** What a running call hears from its socket. */
interface Listener {
  frame(frame: Frame): void;
  closed(error: A2AError): void;
}

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

/** One open WebSocket and the calls listening on it. */
class Socket {
  private readonly listeners = new Map<number, Listener>();
  private closeHandlers: Array<() => void> = [];
  open = true;

  private constructor(
    private readonly ws: WebSocketLike,
    private readonly url: string,
  ) {
    ws.onmessage = (event) => this.onMessage(event.data);
    ws.onclose = (event) => this.onClosed(event.code, event.reason);
    ws.onerror = () => undefined; // the close event that follows carries the outcome
  }

  /** Opens a socket; rejects with Unavailable (`unreachable`) when the upgrade fails or times out. */
  static async open(options: WebSocketTransportOptions): Promise<Socket> {
    const Ctor = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!Ctor)
      throw new A2AError(A2AErrorCode.InvalidRequest, 'No WebSocket implementation: pass `WebSocket` (e.g. from the `ws` package) in the transport options');
    const protocols = [WEBSOCKET_SUBPROTOCOL];
    const token = typeof options.token === 'function' ? await options.token() : options.token;
    if (token) protocols.push(`${WEBSOCKET_AUTH_PREFIX}${base64url(token)}`);
    const url = withVersion(options.url, options.version ?? '1.0');
    let ws: WebSocketLike;
    try {
      ws = new Ctor(url, protocols);
    } catch (error) {
      throw clientError(A2AErrorCode.InvalidRequest, 'unreachable', `Cannot open a WebSocket to ${options.url}: ${(error as Error).message}`, error);
    }
    return new Promise<Socket>((resolve, reject) => {
      const timer = setTimeout(() => {
        fail(`no connection within ${options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS} ms`);
        ws.close();
      }, options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
      const fail = (reason: string) => {
        clearTimeout(timer);
        reject(clientError(A2AErrorCode.Unavailable, 'unreachable', `Cannot reach the A2A WebSocket at ${options.url}: ${reason}`));
      };
      ws.onerror = () => undefined;
      ws.onclose = (event) => fail(`closed during the handshake (code ${event.code}${event.reason ? `: ${event.reason}` : ''})`);
      ws.onopen = () => {
        clearTimeout(timer);
        if (ws.protocol !== WEBSOCKET_SUBPROTOCOL) {
          ws.close(1002, 'subprotocol not selected');
          return reject(notA2A(`${options.url} did not select the ${WEBSOCKET_SUBPROTOCOL} subprotocol`));
        }
        resolve(new Socket(ws, options.url));
      };
    });
  }

  listen(id: number, listener: Listener): void {
    this.listeners.set(id, listener);
  }

  forget(id: number): void {
    this.listeners.delete(id);
  }

  onClose(handler: () => void): void {
    if (!this.open) handler();
    else this.closeHandlers.push(handler);
  }

  send(frame: Frame): void {
    if (!this.open || this.ws.readyState !== OPEN) return;
    this.ws.send(JSON.stringify(frame));
  }

  close(code: number, reason: string): void {
    this.ws.close(code, reason);
  }

  private onMessage(data: unknown): void {
    if (typeof data !== 'string') {
      this.ws.close(1003, 'binary frames are not part of the A2A WebSocket binding');
      return;
    }
    let frame: unknown;
    try {
      frame = JSON.parse(data);
    } catch {
      return; // not ours to answer; a broken server frame fails nothing else
    }
    if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) return;
    const id = (frame as Frame).id;
    const listener = typeof id === 'number' ? this.listeners.get(id) : undefined;
    if (listener) listener.frame(frame as Frame);
    else if (id === null && (frame as Frame).error !== undefined) {
      // An error the server could not tie to a request (e.g. it could not parse our frame): fail everything, it is a bug on one side.
      const error = fromJsonRpcError((frame as Frame).error as Frame);
      for (const l of this.listeners.values()) l.closed(error);
    }
  }

  private onClosed(code: number, reason: string): void {
    this.open = false;
    const error = closeError(code, reason, this.url);
    const listeners = [...this.listeners.values()];
    this.listeners.clear();
    for (const listener of listeners) listener.closed(error);
    const handlers = this.closeHandlers;
    this.closeHandlers = [];
    for (const handler of handlers) handler();
  }
}

/** Frames of one stream, in order, with the socket's fate at the end. */
class FrameQueue implements Listener {
  private readonly frames: Frame[] = [];
  private failure: A2AError | undefined;
  private waiter: { resolve: (frame: Frame) => void; reject: (error: A2AError) => void } | undefined;

  frame(frame: Frame): void {
    if (this.waiter) {
      const { resolve } = this.waiter;
      this.waiter = undefined;
      resolve(frame);
    } else this.frames.push(frame);
  }

  closed(error: A2AError): void {
    this.failure ??= error;
    if (this.waiter) {
      const { reject } = this.waiter;
      this.waiter = undefined;
      reject(error);
    }
  }

  next(): Promise<Frame> {
    const frame = this.frames.shift();
    if (frame) return Promise.resolve(frame);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }
}

/** What a server close code means for the calls that were running. */
function closeError(code: number, reason: string, url: string): A2AError {
  const why = `The WebSocket to ${url} closed (code ${code}${reason ? `: ${reason}` : ''})`;
  switch (code) {
    case 1003:
      return new A2AError(A2AErrorCode.InvalidRequest, why);
    case 1008:
      return new A2AError(A2AErrorCode.ResourceExhausted, why);
    case 1009:
      return new A2AError(A2AErrorCode.PayloadTooLarge, why);
    default:
      // 1000/1001 (closed, server going away), 1006 (dropped), 1011, 1013 (we did not read fast enough): resume.
      return clientError(A2AErrorCode.Unavailable, 'cut', why);
  }
}

/** A JSON-RPC request frame; per-call headers travel as the binding's `serviceParams`. */
function requestFrame(id: number, method: string, params: unknown, headers: Readonly<Record<string, string>> | undefined): Frame {
  const frame: Frame = { jsonrpc: '2.0', id, method, params: params ?? {} };
  if (headers && Object.keys(headers).length > 0) frame.serviceParams = { ...headers };
  return frame;
}

/** The URL with `A2A-Version` as a query parameter (browsers cannot send the header). */
function withVersion(url: string, version: string): string {
  const parsed = new URL(url);
  if (!parsed.searchParams.has('A2A-Version')) parsed.searchParams.set('A2A-Version', version);
  return parsed.toString();
}

/** UTF-8 → base64url without padding, with browser-available globals only. */
function base64url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A call's `timeoutMs` and `signal`, applied to the promises it waits on. */
interface Deadline {
  race<T>(promise: Promise<T>): Promise<T>;
  dispose(): void;
}

function startDeadline(what: string, options: CallOptions): Deadline {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    if (options.timeoutMs !== undefined) timer = setTimeout(() => reject(timedOut(what, options.timeoutMs!)), options.timeoutMs);
    if (options.signal) {
      onAbort = () => reject(aborted(what));
      if (options.signal.aborted) onAbort();
      else options.signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  stop.catch(() => undefined);
  return {
    race: (promise) => Promise.race([promise, stop]),
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** Waits for `promise`, or rejects with `aborted` once the signal fires. */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined, what: string): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(aborted(what));
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    onAbort = () => reject(aborted(what));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, stop]).finally(() => signal.removeEventListener('abort', onAbort!));
}

/** {@link TransportFactory} of the WebSocket binding, with the settings a card cannot give (WebSocket class, token). */
export function webSocketTransportFactory(options: Omit<WebSocketTransportOptions, 'url'> = {}): TransportFactory {
  return ({ agentInterface }) => new WebSocketTransport({ ...options, url: agentInterface.url });
}
