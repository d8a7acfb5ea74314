import type { AgentInterface } from '@a2a-polyglot/model';
import { silentLogger } from '@a2a-polyglot/core';
import {
  createUpgradeListener,
  createWebSocketBinding,
  DEFAULT_WEBSOCKET_SUBPATH,
  refuse,
  type UpgradeListener,
  type WebSocketBinding,
  websocketInterface,
} from '@a2a-polyglot/websocket';
import { nodeArrivingRequest } from './arriving-request.js';
import { browserAccessCheck } from './browser-access.js';
import { type A2AHttpOptions, type A2AWebSocketOptions, DEFAULTS, normalizeBasePath, normalizeMountPath } from './options.js';

/** The WebSocket side of an A2A server: the `upgrade` listener and the binding behind it. */
export interface A2AUpgradeHandler {
  /** `server.on('upgrade', listener)`. */
  readonly listener: UpgradeListener;
  readonly binding: WebSocketBinding;
  /** The upgrade path from the server root, e.g. `/a2a/ws` (`/agents/x/a2a/ws` for a mounted agent). */
  readonly path: string;
}

/** The WebSocket options in effect, or undefined when the binding is off. */
export function websocketOptions(options: A2AHttpOptions): A2AWebSocketOptions | undefined {
  if (!options.websocket) return undefined;
  return options.websocket === true ? {} : options.websocket;
}

/**
 * The upgrade path relative to the listener's `mountPath`: the configured one, or
 * `${basePath}/ws`. (The card builds its URL from the mounted base; the upgrade handler
 * prefixes the mount itself.)
 */
export function websocketPath(options: A2AHttpOptions): string {
  const configured = websocketOptions(options)?.path;
  if (configured !== undefined) return `/${configured.trim().replace(/^\/+/, '')}`;
  return `${normalizeBasePath(options.basePath)}${DEFAULT_WEBSOCKET_SUBPATH}`;
}

/** The card entries the WebSocket option adds (none when it is off or `listInCard` is false). */
export function websocketCardInterfaces(options: A2AHttpOptions, base: string): AgentInterface[] {
  const ws = websocketOptions(options);
  return ws && ws.listInCard !== false ? [websocketInterface(base, websocketPath(options))] : [];
}

/**
 * The WebSocket binding for a node:http(s) server built around
 * {@link createA2ARequestListener}, or undefined when `options.websocket` is off. Attach its
 * listener to the server's `upgrade` event; `startA2AServer` does this itself. Upgrades
 * pass the same Host and Origin checks as the listener's requests (`browserAccessCheck`:
 * same origin or `cors.origins`; 403 otherwise). Aborting
 * `options.shutdownSignal` (or `binding.close()`) closes every socket with 1001.
 */
export function createA2AUpgradeHandler(options: A2AHttpOptions): A2AUpgradeHandler | undefined {
  const ws = websocketOptions(options);
  if (!ws) return undefined;
  const path = `${normalizeMountPath(options.mountPath)}${websocketPath(options)}`;
  const binding = createWebSocketBinding(options.handler, {
    maxPayload: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    logger: options.logger ?? silentLogger,
    ...ws,
    shutdownSignal: options.shutdownSignal,
  });
  // The same Host and Origin checks as the listener's HTTP requests: browsers never ask
  // before opening a WebSocket, so the upgrade is where a page of another origin is refused.
  const checkAccess = browserAccessCheck(options);
  const logger = options.logger ?? silentLogger;
  const upgrade = createUpgradeListener(binding, path);
  const listener: UpgradeListener = (req, socket, head) => {
    const access = checkAccess(nodeArrivingRequest(req));
    if (access.ok) return upgrade(req, socket, head);
    logger.warn({ reason: access.reason }, 'WebSocket upgrade refused by the browser access check');
    socket.on('error', () => undefined);
    refuse(socket, 403, access.reason);
  };
  return { listener, binding, path };
}
