import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AgentCard, type AgentInterface } from '@a2a-polyglot/model';
import { EXPERIMENTAL_VERSION, negotiateVersion, type ProtocolVersion, SUPPORTED_VERSIONS } from '@a2a-polyglot/core';
import { headerValue, sendEmpty } from '@a2a-polyglot/http';
import { agentCardToV03, mergedAgentCard } from '@a2a-polyglot/v03/json';
import { notModified } from './conditional-get.js';

/** Where the card is served (RFC 8615 well-known URI, spec §8), relative to the server root. */
export const WELL_KNOWN_CARD_PATH = '/.well-known/agent-card.json';
/** Card path used up to A2A v0.2.x (spec §0 item 17). */
export const LEGACY_CARD_PATH = '/.well-known/agent.json';
/**
 * Last-resort card path: minimal servers and tutorials serve the card at `/agent.json`, so
 * some clients try it after the well-known paths. Serving it too costs nothing.
 */
export const FALLBACK_CARD_PATH = '/agent.json';

/** How long clients and proxies may cache the card. */
const CARD_MAX_AGE_SECONDS = 300;

/**
 * Which card a discovery request without `A2A-Version` gets (a request naming `1.0` always gets
 * the pure v1.0 card, one naming `0.3` the pure v0.3 card):
 * - `merged` (default): the v1.0 card plus the v0.3 top-level members (`url`,
 *   `preferredTransport`, `additionalInterfaces`, `protocolVersion`, ...). Clients of both
 *   generations resolve it unconfigured: v0.3 clients never send the header, and v1.0 clients
 *   read `supportedInterfaces` (the official SDKs ignore the extra members).
 * - `1.0`: the pure v1.0 card, for strict v1.0 validators that reject unknown members.
 * - `0.3`: the pure v0.3 card, for strict v0.3 clients.
 */
export type CardCompat = 'merged' | '1.0' | '0.3';

/** The {@link CardCompat} values, for configuration checks. */
export const CARD_COMPAT_VALUES: readonly CardCompat[] = ['merged', '1.0', '0.3'];

/**
 * Bindings that also serve A2A v0.3 at their v1.0 URL: JSON-RPC picks the generation by method
 * name; REST serves v0.3 under `/v1` of its base URL, which v0.3 clients append themselves.
 */
const V03_BINDINGS = ['JSONRPC', 'HTTP+JSON'];

/** Options of {@link cardInterfaces}. */
export interface CardInterfaceOptions {
  /**
   * The handler serves the experimental A2A 1.1 (`RequestHandler.experimental11`): every 1.0
   * interface is listed a second time with `protocolVersion: "1.1"` (same URL), after the 1.0
   * ones, so clients that do not know 1.1 keep picking 1.0 first.
   */
  readonly experimental11?: boolean;
}

/**
 * The card's `supportedInterfaces` as this server exposes them: JSON-RPC and REST under
 * `basePath`, then `extra` (gRPC, WebSocket), then (with `experimental11`) the same 1.0
 * entries as 1.1, then the v0.3 entries of JSON-RPC and REST (same URLs,
 * `protocolVersion: "0.3"`, after every 1.0 entry so v1.0 clients pick 1.0 first), then any
 * the card already declared (for example another deployment), without duplicates.
 */
export function cardInterfaces(
  card: AgentCard,
  base: string,
  basePath: string,
  extra: readonly AgentInterface[],
  options: CardInterfaceOptions = {},
): AgentInterface[] {
  const [version] = SUPPORTED_VERSIONS; // newest first
  if (version === undefined) throw new Error('SUPPORTED_VERSIONS is empty');
  const current: AgentInterface[] = [
    { url: `${base}${basePath}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: version, tenant: '' },
    { url: `${base}${basePath}`, protocolBinding: 'HTTP+JSON', protocolVersion: version, tenant: '' },
  ];
  const legacy = current.filter((i) => V03_BINDINGS.includes(i.protocolBinding)).map((i) => ({ ...i, protocolVersion: '0.3' }));
  // Every current-version interface first (clients pick the first they speak), then the v0.3 ones.
  const isLegacy = (i: AgentInterface) => i.protocolVersion === '0.3';
  const currentAll = [...current, ...extra.filter((i) => !isLegacy(i))];
  const draft = options.experimental11
    ? currentAll.filter((i) => i.protocolVersion === version).map((i) => ({ ...i, protocolVersion: EXPERIMENTAL_VERSION }))
    : [];
  const ours: AgentInterface[] = [...currentAll, ...draft, ...legacy, ...extra.filter(isLegacy)];
  const key = (i: AgentInterface) => `${i.protocolBinding} ${i.url} ${i.protocolVersion} ${i.tenant}`;
  const seen = new Set(ours.map(key));
  return [...ours, ...card.supportedInterfaces.filter((i) => !seen.has(key(i)))];
}

/**
 * The card JSON for one discovery request: by its `A2A-Version` (`1.0`, and the experimental
 * `1.1` whose card is 1.0's, ⇒ v1.0 card, `0.3` ⇒ v0.3 card), else by `compat` (see {@link CardCompat}). An unsupported version gets the
 * default too: discovery answers every client rather than fail.
 */
export function cardForRequest(card: AgentCard, requestedVersion: string | undefined, compat: CardCompat): unknown {
  const json = AgentCard.toJSON(card) as Record<string, unknown>;
  const variant = requestedVersion === undefined ? compat : (namedVersion(requestedVersion) ?? compat);
  if (variant === '1.0') return json;
  return variant === '0.3' ? agentCardToV03(json) : mergedAgentCard(json);
}

function namedVersion(raw: string): ProtocolVersion | undefined {
  try {
    return negotiateVersion(raw);
  } catch {
    return undefined;
  }
}

/**
 * Serves the public agent card: no version header or credentials required (discovery), the
 * generation picked by {@link cardForRequest} (hence `Vary: A2A-Version`),
 * `Cache-Control: public, max-age=300`, a content-hash ETag and `Last-Modified` (when the
 * card last changed, see `CardClock`), with `If-None-Match` / `If-Modified-Since` → 304 so
 * polling clients revalidate cheaply (spec §8 caching).
 */
export function sendAgentCard(
  req: IncomingMessage,
  res: ServerResponse,
  card: AgentCard,
  headers: Readonly<Record<string, string>>,
  lastModified: Date,
  compat: CardCompat = 'merged',
): void {
  const body = JSON.stringify(cardForRequest(card, headerValue(req, 'a2a-version'), compat));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const cacheHeaders = { ...headers, etag, 'last-modified': lastModified.toUTCString(), 'cache-control': `public, max-age=${CARD_MAX_AGE_SECONDS}` };
  if (notModified(req, etag, lastModified)) {
    sendEmpty(res, 304, cacheHeaders);
    return;
  }
  res.writeHead(200, { ...cacheHeaders, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}
