import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer, type ServerOptions as HttpsServerOptions } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { clientAddressResolver, linkSignals, recordClientAddress, type ForwardedHeader, type TrustedProxies } from '@a2a-polyglot/http';
import { refuse, type WebSocketBinding } from '@a2a-polyglot/websocket';
import { AgentMounts } from './agent-mounts.js';
import { createA2ARequestListener } from './listener.js';
import { createMountedListener } from './mounts.js';
import type { A2AHttpOptions, ServiceListingSettings } from './options.js';
import { listingOptionsOf, withServiceListings } from './service-listings.js';
import { createA2AUpgradeHandler } from './websocket.js';

/** Options of {@link startA2AServer}: the listener's, plus where to listen. */
export interface StartA2AServerOptions extends A2AHttpOptions, ServiceListingSettings {
  /** Interface to bind. Default `127.0.0.1` (pass `0.0.0.0` or `::` to serve the network). */
  readonly host?: string;
  /** Port; default 0 (an ephemeral port, see `url`). */
  readonly port?: number;
  /**
   * More agents on the same server, each under its own non-root `mountPath`; requests under a
   * mount go to it, everything else to the agent of these options. They share the shutdown.
   * Pass an {@link AgentMounts} table to add and remove agents while the server runs. A mount
   * with `websocket` on takes upgrades at `${mountPath}${websocketPath}` (`/agents/x/a2a/ws`).
   */
  readonly mounts?: readonly A2AHttpOptions[] | AgentMounts;
  /**
   * Serve HTTPS (and WSS for the WebSocket binding) with these `node:https` options: at least
   * `key` and `cert` (PEM). Add `ca` with `requestCert: true` to ask clients for certificates
   * (a verified one reaches authenticators as `CallContext.clientCertificate`); keep
   * `rejectUnauthorized: false` then, or clients without one (browsers) cannot connect at all.
   * Plain HTTP when undefined.
   */
  readonly tls?: HttpsServerOptions;
  /**
   * Reverse proxies whose forwarded header names the client (see `TrustedProxies`): the
   * address per-address rate limits count is then the client's, on every HTTP binding and
   * the WebSocket upgrade, not the proxy's. Default none: the socket's peer is the client.
   */
  readonly trustedProxies?: TrustedProxies;
  /** The header those proxies write: `x-forwarded-for` (default) or RFC 7239 `forwarded`. */
  readonly forwardedHeader?: ForwardedHeader;
}

/** A listening A2A server. */
export interface RunningA2AServer {
  readonly server: Server;
  /** Where it listens, e.g. `http://127.0.0.1:43123` (not the public URL). */
  readonly url: string;
  /** The WebSocket binding when the `websocket` option is on (socket stats, e.g. send-buffer sizes). */
  readonly websocket?: WebSocketBinding;
  /**
   * Stops accepting connections, ends open SSE streams, closes WebSocket sockets with 1001
   * (after their streams got `streamEnd` "shutdown"), closes idle keep-alive connections at
   * once and busy ones as soon as their response is done (dropping any still busy after a
   * few seconds). Idempotent.
   */
  close(): Promise<void>;
}

/** Connections still busy this long after close() are dropped. */
const FORCE_CLOSE_AFTER_MS = 3000;
/** How often close() re-checks for connections that became idle. */
const IDLE_SWEEP_MS = 20;

/**
 * Starts a node:http server with {@link createA2ARequestListener}: what the executor service
 * and the tests use. Resolves once it listens.
 */
export async function startA2AServer(options: StartA2AServerOptions): Promise<RunningA2AServer> {
  const shutdown = new AbortController();
  const { signal: shutdownSignal } = linkSignals(options.shutdownSignal, shutdown.signal);
  const table = options.mounts instanceof AgentMounts ? options.mounts : options.mounts?.length ? new AgentMounts(options.mounts) : undefined;
  table?.useShutdownSignal(shutdownSignal);
  const root = { ...options, shutdownSignal };
  const listings = listingOptionsOf(options);
  const served = table
    ? createMountedListener(root, table, listings)
    : withServiceListings(createA2ARequestListener(root), { root, listed: () => [root] }, listings);
  const clientAddress = clientAddressResolver({ trustedProxies: options.trustedProxies, header: options.forwardedHeader });
  const listener: typeof served = clientAddress
    ? (req, res) => {
        recordClientAddress(req, clientAddress);
        return served(req, res);
      }
    : served;
  const server: Server = options.tls ? createHttpsServer(options.tls, listener) : createServer(listener);
  const upgrades = createA2AUpgradeHandler({ ...options, shutdownSignal });
  // Recorded only where upgrades are taken: an `upgrade` listener makes node hand the socket
  // over, so one that only recorded would leave an upgrade without a WebSocket endpoint hanging.
  const record = (req: IncomingMessage) => clientAddress && recordClientAddress(req, clientAddress);
  if (table) {
    // A mounted agent's WebSocket path first, then the root's (which refuses other paths).
    server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
      record(req);
      const mounted = table.match(req.url)?.upgrades;
      if (mounted) return mounted.listener(req, socket, head);
      if (upgrades) return upgrades.listener(req, socket, head);
      socket.on('error', () => undefined);
      refuse(socket, 404, 'No WebSocket endpoint here');
    });
  } else if (upgrades) {
    server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
      record(req);
      upgrades.listener(req, socket, head);
    });
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Node's closeIdleConnections() skips sockets that never carried a request (clients such as
  // fetch open spare ones), so track them and destroy those on close. Under TLS the request
  // bytes arrive on the TLS socket, not on the TCP one under it.
  const fresh = new Set<Socket>();
  server.on(options.tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    fresh.add(socket);
    socket.once('data', () => fresh.delete(socket));
    socket.once('close', () => fresh.delete(socket));
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      shutdown.abort();
      const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      const force = setTimeout(() => server.closeAllConnections(), FORCE_CLOSE_AFTER_MS);
      sweep.unref();
      force.unref();
      server.close(() => {
        clearInterval(sweep);
        clearTimeout(force);
        resolve();
      });
      server.closeIdleConnections();
      for (const socket of fresh) socket.destroy();
    }));

  return { server, url: `${options.tls ? 'https' : 'http'}://${host}:${address.port}`, close, ...(upgrades ? { websocket: upgrades.binding } : {}) };
}
