import { AgentCard, type AgentCardSignature, type AgentInterface } from '@a2a-polyglot/model';
import {
  A2AError,
  A2AErrorCode,
  EXPERIMENTAL_VERSION,
  negotiateVersion,
  type ProtocolVersion,
  type ServedHandler,
  SUPPORTED_VERSIONS,
} from '@a2a-polyglot/core';
import { emptyResult, type HttpExchangeBody, jsonResult } from '@a2a-polyglot/http';
import { restError } from '@a2a-polyglot/rest';
import { agentCardToV03, mergedAgentCard } from '@a2a-polyglot/v03/json';
import type { CardClock } from './card-clock.js';
import { notModified } from './conditional-get.js';
import { publicUrlVary } from './public-url.js';

/** Where the card is served (RFC 8615 well-known URI, spec §8), relative to the server root. */
export const WELL_KNOWN_CARD_PATH = '/.well-known/agent-card.json';
/** Card path used up to A2A v0.2.x (spec §0 item 17). */
export const LEGACY_CARD_PATH = '/.well-known/agent.json';
/**
 * Last-resort card path: minimal servers and tutorials serve the card at `/agent.json`, so
 * some clients try it after the well-known paths. Serving it too costs nothing.
 */
export const FALLBACK_CARD_PATH = '/agent.json';

/**
 * Every path the card is served at for a listener mounted at `mount` (`''` at the root) with
 * A2A endpoints under `basePath`: the well-known path, the legacy and last-resort ones, and the
 * well-known path under `basePath`.
 */
export function cardPaths(mount: string, basePath: string): Set<string> {
  return new Set([WELL_KNOWN_CARD_PATH, LEGACY_CARD_PATH, FALLBACK_CARD_PATH, `${basePath}${WELL_KNOWN_CARD_PATH}`].map((p) => `${mount}${p}`));
}

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
 * The public agent card answer: no version header or credentials required (discovery), the
 * generation picked by {@link cardForRequest} (hence `Vary: A2A-Version`),
 * `Cache-Control: public, max-age=300`, a content-hash ETag and `Last-Modified` (when the
 * card last changed, see `CardClock`), with `If-None-Match` / `If-Modified-Since` → 304 so
 * polling clients revalidate cheaply (spec §8 caching). A HEAD gets the GET's headers, no body.
 * Runtime-free: `header` reads a request header (any runtime), the answer is written by its adapter;
 * the ETag is hashed with Web Crypto (`crypto.subtle`, in Node and in Workers, where `node:crypto`
 * needs the nodejs_compat flag), so it is async.
 */
export async function agentCardResult(
  method: string,
  header: (name: string) => string | undefined,
  card: AgentCard,
  headers: Readonly<Record<string, string>>,
  lastModified: Date,
  compat: CardCompat = 'merged',
): Promise<HttpExchangeBody> {
  const requested = header('a2a-version')?.trim();
  const body = JSON.stringify(cardForRequest(card, requested === '' ? undefined : requested, compat));
  const bytes = new TextEncoder().encode(body);
  const etag = `"${base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))).slice(0, 27)}"`;
  const cacheHeaders = { ...headers, etag, 'last-modified': lastModified.toUTCString(), 'cache-control': `public, max-age=${CARD_MAX_AGE_SECONDS}` };
  if (notModified(header, etag, lastModified)) return emptyResult(304, cacheHeaders);
  if (method === 'HEAD') {
    return emptyResult(200, { ...cacheHeaders, 'content-type': 'application/json', 'content-length': String(bytes.byteLength) });
  }
  return { kind: 'body', status: 200, headers: cacheHeaders, body, contentType: 'application/json' };
}

/** Base64url without padding (as Node's `digest('base64url')`), without `Buffer`. */
function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** What {@link agentCardAnswer} serves: the handler's card with the interfaces of this server. */
export interface CardSource {
  readonly handler: Pick<ServedHandler, 'getAgentCard' | 'experimental11'>;
  readonly signCard?: (card: AgentCard) => Promise<readonly AgentCardSignature[]>;
  readonly cardCompat?: CardCompat;
}

/**
 * The whole card route, runtime-free: 405 for verbs other than GET and HEAD, else the
 * handler's card with `cardInterfaces(card, base, basePath, extra)` (signed as served when
 * `signCard` is set), `Last-Modified` from `clock`, answered by {@link agentCardResult}.
 */
export async function agentCardAnswer(
  source: CardSource,
  clock: CardClock,
  request: { readonly method: string; header(name: string): string | undefined },
  at: { readonly base: string; readonly basePath: string; readonly extra: readonly AgentInterface[]; readonly vary: string },
): Promise<HttpExchangeBody> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    const error = restError(new A2AError(A2AErrorCode.MethodNotFound, 'The agent card is read with GET'), undefined, 405);
    return jsonResult(405, error.body, 'application/json', { allow: 'GET, HEAD' });
  }
  const card = source.handler.getAgentCard();
  const interfaces = cardInterfaces(card, at.base, at.basePath, at.extra, { experimental11: source.handler.experimental11 });
  const lastModified = clock.lastModified(JSON.stringify(AgentCard.toJSON(card)));
  const served: AgentCard = { ...card, supportedInterfaces: interfaces };
  // Signed as served: a signature over the configured card would not cover the interfaces.
  if (source.signCard) served.signatures = [...(await source.signCard(served))];
  return agentCardResult(request.method, (name) => request.header(name), served, { vary: at.vary }, lastModified, source.cardCompat);
}

/** The card's `Vary`: the headers its public URL is built from (see `publicUrlVary`), and `A2A-Version`. */
export function cardVary(options: { readonly publicBaseUrl?: string; readonly trustProxy?: boolean }): string {
  return [...publicUrlVary(options.publicBaseUrl, options.trustProxy ?? false), 'A2A-Version'].join(', ');
}
