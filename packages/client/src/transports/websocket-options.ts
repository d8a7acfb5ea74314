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
