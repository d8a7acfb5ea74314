import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { requestPath, routingPath } from '@a2a-polyglot/http';
import { refuse, type WebSocketBinding } from './binding.js';

/** A node:http `upgrade` listener. */
export type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * An `upgrade` listener for a node:http(s) server that hands requests for `path` (exact up
 * to one trailing slash, query ignored) to the binding and answers every other upgrade with
 * 404, so a stray upgrade never hangs. `server.on('upgrade', createUpgradeListener(binding, '/a2a/ws'))`.
 */
export function createUpgradeListener(binding: WebSocketBinding, path: string): UpgradeListener {
  const served = routingPath(path);
  return (req, socket, head) => {
    if (routingPath(req.url) === served) return binding.handleUpgrade(req, socket, head);
    socket.on('error', () => undefined);
    refuse(socket, 404, `No WebSocket endpoint at ${requestPath(req.url)}`);
  };
}
