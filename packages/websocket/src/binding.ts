import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { type ServedHandler, silentLogger } from '@a2a-polyglot/core';
import { remoteAddressOf, verifiedClientCertificate } from '@a2a-polyglot/http';
import { JsonRpcDispatcher } from '@a2a-polyglot/jsonrpc';
import { Connection, type ConnectionStats } from './connection.js';
import { checkHandshake } from './handshake.js';
import { resolveOptions, type WebSocketBindingOptions } from './options.js';
import { SUBPROTOCOL } from './protocol.js';

/** Settings of {@link createWebSocketBinding}. */
export interface CreateWebSocketBindingOptions extends WebSocketBindingOptions {
  /** Aborting it closes every socket with 1001 after ending their streams (graceful shutdown). */
  readonly shutdownSignal?: AbortSignal;
}

/** The WebSocket binding of one handler, ready to take upgrades from any node:http server. */
export interface WebSocketBinding {
  /**
   * Completes (or refuses with an HTTP status) one upgrade request. The caller has already
   * matched the path. Never throws.
   */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Per-socket monitoring snapshots. */
  stats(): ConnectionStats[];
  /**
   * Stops accepting upgrades, ends every stream with `streamEnd` reason `shutdown`, closes
   * every socket with 1001 and resolves once all are gone (stragglers are dropped). Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Creates the A2A WebSocket binding: JSON-RPC 2.0 requests in text frames, dispatched by the
 * same {@link JsonRpcDispatcher} as the HTTP JSON-RPC binding (so methods, params, results
 * and errors are identical), many operations multiplexed on one socket, streams as frames
 * tied to the request id with `seq` and a closing `streamEnd`. See the package README for
 * every frame, limit and close code.
 */
export function createWebSocketBinding(handler: ServedHandler, options: CreateWebSocketBindingOptions = {}): WebSocketBinding {
  const logger = options.logger ?? silentLogger;
  const resolved = resolveOptions(options, logger);
  const dispatcher = new JsonRpcDispatcher(handler, { logger });
  const connections = new Set<Connection>();
  const sockets = new Set<import('ws').WebSocket>();
  const wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    maxPayload: resolved.maxPayload,
    handleProtocols: (offered) => (offered.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
  });
  wss.on('error', (error) => logger.error({ err: error }, 'WebSocket server error'));

  let closing: Promise<void> | undefined;
  const heartbeat =
    resolved.heartbeatMs > 0
      ? setInterval(() => {
          for (const connection of connections) connection.heartbeat();
        }, resolved.heartbeatMs)
      : undefined;
  heartbeat?.unref();

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => undefined); // a reset during the handshake must not crash the process
    try {
      if (closing) {
        refuse(socket, 503, 'The server is shutting down');
        return;
      }
      if (connections.size >= resolved.maxConnections) {
        refuse(socket, 503, 'Too many WebSocket connections');
        return;
      }
      const handshake = checkHandshake(req, resolved.allowedOrigins);
      if (!handshake.ok) {
        refuse(socket, handshake.status, handshake.reason);
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        if (closing) {
          ws.close(1001, 'server shutting down');
          return;
        }
        const peer = { remoteAddress: remoteAddressOf(req), clientCertificate: verifiedClientCertificate(req.socket) };
        const chargeFrame = () => handler.chargeArrival('WEBSOCKET', peer.remoteAddress);
        const connection = new Connection(ws, handshake.headers, dispatcher, resolved, logger, socket, peer, chargeFrame);
        connections.add(connection);
        sockets.add(ws);
        ws.once('close', () => {
          connections.delete(connection);
          sockets.delete(ws);
        });
      });
    } catch (error) {
      logger.error({ err: error }, 'WebSocket upgrade failed');
      socket.destroy();
    }
  }

  async function shutdown(): Promise<void> {
    if (heartbeat) clearInterval(heartbeat);
    await Promise.all([...connections].map((c) => c.shutdown()));
    const open = [...sockets];
    await Promise.all(open.map((ws) => new Promise<void>((resolve) => (ws.readyState === ws.CLOSED ? resolve() : ws.once('close', () => resolve())))));
    wss.close();
  }

  const close = () => (closing ??= shutdown());
  options.shutdownSignal?.addEventListener('abort', () => void close(), { once: true });
  if (options.shutdownSignal?.aborted) void close();

  return {
    handleUpgrade,
    stats: () => [...connections].map((c) => c.stats()),
    close,
  };
}

/** Answers an upgrade with a plain HTTP error and drops the connection. */
export function refuse(socket: Duplex, status: number, reason: string): void {
  const body = `${reason}\n`;
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Connection: close',
    'Content-Type: text/plain; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  setTimeout(() => socket.destroy(), 1000).unref();
}
