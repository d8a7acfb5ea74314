import { A2AError, A2AErrorCode, fromJsonRpcError } from '@a2a-polyglot/core';
import { clientError, notA2A } from '../failures.js';
import type { Frame, Listener } from './websocket-frames.js';
import {
  WEBSOCKET_AUTH_PREFIX,
  WEBSOCKET_SUBPROTOCOL,
  type WebSocketConstructor,
  type WebSocketLike,
  type WebSocketTransportOptions,
} from './websocket-options.js';

const OPEN = 1;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** One open WebSocket and the calls listening on it. */
export class Socket {
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
