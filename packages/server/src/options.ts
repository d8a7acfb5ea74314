import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentCard, AgentCardSignature, AgentInterface } from '@a2a-polyglot/model';
import type { Logger, ServedHandler } from '@a2a-polyglot/core';
import type { WebSocketBindingOptions } from '@a2a-polyglot/websocket';
import type { CardCompat } from './agent-card.js';
import type { ReadinessSource } from './health.js';
import type { MetricsSource } from './metrics-endpoint.js';

/** The WebSocket binding as served by this server: its limits, plus where it upgrades. */
export interface A2AWebSocketOptions extends WebSocketBindingOptions {
  /** Upgrade path from the server root. Default `${basePath}/ws` (`/a2a/ws`). */
  readonly path?: string;
  /**
   * List the binding in the agent card, default true. `false` leaves it out (strict card
   * validators skip a card with a binding they do not know) while the endpoint keeps serving
   * clients that know its URL.
   */
  readonly listInCard?: boolean;
}

/** The browser pages allowed to call, besides the server's own: {@link A2AHttpOptions.cors}. */
export interface CorsOptions {
  /**
   * Origins (`https://app.example.com`: scheme, host and port, no path) whose pages may call.
   * `*` lets any page call: only for an agent whose every call needs credentials that a page
   * cannot take from the browser (headers, never cookies). Default none.
   */
  readonly origins?: readonly string[];
}

/** See {@link A2AHttpOptions.extraRoutes}; `path` is the routing path (no query, one trailing slash dropped). */
export type ExtraRoutes = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;

/** Everything {@link createA2ARequestListener} needs; only `handler` is required. */
export interface A2AHttpOptions {
  readonly handler: ServedHandler;
  /**
   * Prefix of the A2A endpoints, default `/a2a`: JSON-RPC at `${basePath}/rpc`, REST under
   * `${basePath}`. `''` (or `/`) mounts REST at the root and JSON-RPC at `/rpc`.
   */
  readonly basePath?: string;
  /**
   * Path prefix of everything this listener serves, default `''` (the root): the card at
   * `${mountPath}/.well-known/agent-card.json`, JSON-RPC at `${mountPath}${basePath}/rpc`, REST
   * under `${mountPath}${basePath}`, and card URLs that include it. Lets one server host several
   * agents side by side (see `mounts` of `startA2AServer`).
   */
  readonly mountPath?: string;
  /**
   * A second, short prefix of a mounted agent (e.g. `/{id}` next to the mountPath
   * `/agents/{id}`) at which it answers two paths only: JSON-RPC at `POST ${aliasPath}/a2a`
   * and its card at `${aliasPath}/.well-known/agent-card.json` (see {@link aliasRoutes}). The
   * path shape of daemon-engine clients; everything else, and the URLs in the card, stay under
   * `mountPath`. Ignored at the root. The host must keep it clear of its own root paths.
   */
  readonly aliasPath?: string;
  /**
   * Public origin (and optional path) clients reach this server at, e.g.
   * `https://agents.example.com/x`; the card's interface URLs are built from it. Default: the
   * request's Host header (and `X-Forwarded-Proto` / `X-Forwarded-Host` when `trustProxy`).
   */
  readonly publicBaseUrl?: string;
  /** Believe `X-Forwarded-Proto` / `X-Forwarded-Host` (only behind a proxy that sets them). */
  readonly trustProxy?: boolean;
  /** Largest accepted request body. Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /** Idle time before an SSE heartbeat comment. Default 15000. */
  readonly sseHeartbeatMs?: number;
  /**
   * How long an SSE stream may stay blocked on a client that does not read (socket not
   * draining) before its response is destroyed and its event-log cursor released; the task
   * continues and the client can resume with `Last-Event-ID`. Default 30000 (as the WebSocket
   * binding's `stallTimeoutMs`); 0 disables.
   */
  readonly sseStallTimeoutMs?: number;
  /**
   * Which browser pages may call (see `browserAccessCheck`). Default `true`, the same as
   * `{ origins: [] }`: pages of the server's own origin only. A request whose `Origin` is
   * neither the server's own nor listed is refused with 403 before it reaches the agent (a
   * simple POST needs no preflight, so CORS headers alone would not stop it). Listed origins
   * get `Access-Control-Allow-Origin: <origin>`, preflights answered with 204, A2A headers
   * allowed and `A2A-Extensions` exposed. The agent card and the agent index are public: any
   * origin may read them (`*`). `false`: no CORS headers and no preflights (a proxy in front
   * answers them); the Origin check stays.
   */
  readonly cors?: boolean | CorsOptions;
  /**
   * Host names a request's `Host` may carry besides IP addresses, `localhost` (and
   * `*.localhost`) and the host of `publicBaseUrl`: `agents.example.com`, `.example.com` for
   * the domain and its subdomains, `*` for any. Others get 403, because a DNS name an attacker
   * points at 127.0.0.1 (DNS rebinding) would make the attacker's page same-origin with this
   * server. Unset (default): requests that arrive on a loopback address are checked, those that
   * arrive on another address may name any host (a service on the network is reached under
   * names it cannot know). Set it, even to `[]`, to check every request. With `trustProxy`,
   * `X-Forwarded-Host` is checked instead of `Host` when present.
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Which card a discovery request without `A2A-Version` gets: `merged` (default; v1.0 card +
   * v0.3 top-level members, read by clients of both generations), `1.0` (pure, for strict v1.0
   * validators) or `0.3`. Requests naming a version always get that generation's pure card.
   */
  readonly cardCompat?: CardCompat;
  /**
   * Signs the served card (spec §8 card signatures): called with the v1.0 card as this request
   * gets it (interfaces filled in), its answer replaces the card's `signatures` in every
   * generation served (v1.0, merged, v0.3; the signatures cover the v1.0 form). Unset: the card
   * keeps the `signatures` it has (none by default). `createCardSigner` of
   * `@a2a-polyglot/card-signing` makes one (`(card) => signer.sign(card)`); it signs each card
   * content once.
   */
  readonly signCard?: (card: AgentCard) => Promise<readonly AgentCardSignature[]>;
  /** Interfaces served elsewhere (gRPC, WebSocket) to list in the card after JSON-RPC and REST. */
  readonly extraInterfaces?: (publicBaseUrl: string) => AgentInterface[];
  /**
   * The WebSocket binding on the same port (off by default): `true` for the defaults, or its
   * options. When on, upgrades at its path are served and the card lists it after JSON-RPC
   * and REST under the `@a2a-polyglot/websocket` binding URI with a `ws(s)://` URL.
   */
  readonly websocket?: boolean | A2AWebSocketOptions;
  /**
   * What `/readyz` reports (see `serveHealth`). Default: ready unless the handler is draining.
   * The executor adds its store and event-log probes. `/healthz` needs nothing.
   */
  readonly readiness?: ReadinessSource;
  /** Serves `GET /metrics` from this source (root listener only). Off when undefined. */
  readonly metrics?: MetricsSource;
  /**
   * More routes of the root listener, tried before the A2A endpoints (e.g. the executor's
   * `/inspector` page): answers and resolves true, or resolves false for a path it does not
   * serve. The server knows no pages; the host hands them in, as it does the metrics.
   */
  readonly extraRoutes?: ExtraRoutes;
  /** Aborting it ends all open SSE streams (graceful shutdown; `startA2AServer` sets it up). */
  readonly shutdownSignal?: AbortSignal;
  readonly logger?: Logger;
}

/**
 * The listings a host answers besides its agents' routes (`startA2AServer`, the fetch
 * handler): for operators and generic API crawlers, as public as the cards they point at.
 */
export interface ServiceListingSettings {
  /**
   * Where `GET` lists the served agents for operators (`{"agents": [{id, name, cardUrl,
   * default}]}`), e.g. `/agents`: the `mounts`, or without mounts the one agent of these
   * options (id `""`). Default: no listing.
   */
  readonly agentIndexPath?: string;
  /**
   * Serve the RFC 9727 API catalog at `/.well-known/api-catalog` (GET and HEAD): a linkset
   * naming the API of the root agent and of every mounted agent, each with its card as
   * `service-desc`. Default false.
   */
  readonly apiCatalog?: boolean;
}

/** Defaults of {@link A2AHttpOptions}. */
export const DEFAULTS = {
  basePath: '/a2a',
  maxBodyBytes: 4 * 1024 * 1024,
  sseHeartbeatMs: 15_000,
  sseStallTimeoutMs: 30_000,
} as const;

/**
 * What the JSON-RPC and REST handlers take from a listener's options, defaults filled in: one
 * place, so the node listener and the fetch handler cannot drift apart.
 */
export function bindingSettings(
  options: Pick<A2AHttpOptions, 'maxBodyBytes' | 'sseHeartbeatMs' | 'sseStallTimeoutMs' | 'shutdownSignal'>,
  logger: Logger,
): { maxBodyBytes: number; heartbeatMs: number; sseStallTimeoutMs: number; shutdownSignal: AbortSignal | undefined; logger: Logger } {
  return {
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    heartbeatMs: options.sseHeartbeatMs ?? DEFAULTS.sseHeartbeatMs,
    sseStallTimeoutMs: options.sseStallTimeoutMs ?? DEFAULTS.sseStallTimeoutMs,
    shutdownSignal: options.shutdownSignal,
    logger,
  };
}

/** `basePath` without trailing slashes, with a leading one; the root is `''`. */
export function normalizeBasePath(basePath: string | undefined): string {
  const trimmed = (basePath ?? DEFAULTS.basePath).trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** `mountPath` without trailing slashes, with a leading one; the root (default) is `''`. */
export function normalizeMountPath(mountPath: string | undefined): string {
  return normalizeBasePath(mountPath ?? '');
}

/** The exact routing paths a mounted agent answers at its {@link A2AHttpOptions.aliasPath}. */
export interface AliasRoutes {
  /** `${aliasPath}/a2a`: JSON-RPC, as at `${mountPath}${basePath}/rpc`. */
  readonly jsonRpc: string;
  /** `${aliasPath}/.well-known/agent-card.json`: the agent's card. */
  readonly card: string;
}

/**
 * The alias paths of `options` (undefined without an `aliasPath`, or at the root): the one
 * place they are spelled, read by the listener that answers them and the mount table that
 * routes them to it.
 */
export function aliasRoutes(options: Pick<A2AHttpOptions, 'aliasPath' | 'mountPath'>): AliasRoutes | undefined {
  const alias = normalizeMountPath(options.aliasPath);
  if (alias === '' || normalizeMountPath(options.mountPath) === '') return undefined;
  return { jsonRpc: `${alias}/a2a`, card: `${alias}/.well-known/agent-card.json` };
}
