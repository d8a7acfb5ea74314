import type { Logger } from '@a2a-polyglot/core';

/**
 * Settings of the WebSocket binding. Every limit exists so that one misbehaving or slow
 * peer costs a bounded amount of memory and CPU and never affects other sockets.
 */
export interface WebSocketBindingOptions {
  /** Largest accepted frame (message) in bytes; larger ones close the socket with 1009. Default 4 MiB. */
  readonly maxPayload?: number;
  /** Ping interval; a peer that did not answer the previous ping is terminated. Default 30000; 0 disables. */
  readonly heartbeatMs?: number;
  /**
   * Send-buffer high-water mark in bytes (`ws.bufferedAmount`). Streams stop pulling events
   * above it and resume once the buffer drained below half of it. Default 1 MiB.
   */
  readonly highWaterMark?: number;
  /** How long the buffer may stay above the high-water mark before the socket is closed with 1013. Default 30000. */
  readonly stallTimeoutMs?: number;
  /** Operations (pending unary calls plus open streams) one socket may have at once; more get ResourceExhausted. Default 64. */
  readonly maxInFlight?: number;
  /** Sustained inbound messages per second per socket; exceeding it (after the burst) closes with 1008. Default 100. */
  readonly maxMessagesPerSecond?: number;
  /** Messages a socket may send at once before the rate applies. Default 200. */
  readonly messageBurst?: number;
  /** Open sockets this binding accepts; further upgrades get HTTP 503. Default 10000. */
  readonly maxConnections?: number;
  /**
   * Browser origins allowed to connect (exact `Origin` values). Default: any, which lets a
   * page of any site connect and, without authentication, call. `@a2a-polyglot/server` checks
   * Host and Origin (same origin or its `cors.origins`) before an upgrade reaches the binding;
   * on a server of your own, set this list (browsers never ask before opening a WebSocket).
   */
  readonly allowedOrigins?: readonly string[];
  /** After a close frame, how long to wait for the peer's before dropping the TCP connection. Default 2000. */
  readonly closeTimeoutMs?: number;
  readonly logger?: Logger;
}

/** Defaults of {@link WebSocketBindingOptions}. */
export const WEBSOCKET_DEFAULTS = {
  maxPayload: 4 * 1024 * 1024,
  heartbeatMs: 30_000,
  highWaterMark: 1024 * 1024,
  stallTimeoutMs: 30_000,
  maxInFlight: 64,
  maxMessagesPerSecond: 100,
  messageBurst: 200,
  maxConnections: 10_000,
  closeTimeoutMs: 2000,
} as const;

/** Options with every default filled in. @internal */
export type ResolvedWebSocketOptions = Required<Omit<WebSocketBindingOptions, 'allowedOrigins'>> & { readonly allowedOrigins?: readonly string[] };

/** Fills in defaults and rejects nonsense values early (configuration errors, not runtime ones). @internal */
export function resolveOptions(options: WebSocketBindingOptions, logger: Logger): ResolvedWebSocketOptions {
  const resolved = { ...WEBSOCKET_DEFAULTS, ...stripUndefined(options), logger };
  for (const key of ['maxPayload', 'highWaterMark', 'maxInFlight', 'maxMessagesPerSecond', 'messageBurst', 'maxConnections'] as const) {
    const value = resolved[key];
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`WebSocket option ${key} must be a positive number, got ${value}`);
  }
  for (const key of ['heartbeatMs', 'stallTimeoutMs', 'closeTimeoutMs'] as const) {
    const value = resolved[key];
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`WebSocket option ${key} must be a non-negative number, got ${value}`);
  }
  return resolved;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
