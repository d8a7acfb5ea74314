import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AgentCard, type AgentInterface } from '@a2a-polyglot/model';
import { SUPPORTED_VERSIONS } from '@a2a-polyglot/core';
import { sendEmpty } from '@a2a-polyglot/http';
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
 * The card's `supportedInterfaces` as this server exposes them: JSON-RPC and REST under
 * `basePath`, then `extra` (gRPC, WebSocket), then any the card already declared (for example
 * another deployment), without duplicates.
 */
export function cardInterfaces(card: AgentCard, base: string, basePath: string, extra: readonly AgentInterface[]): AgentInterface[] {
  const version = SUPPORTED_VERSIONS[0]!;
  const ours: AgentInterface[] = [
    { url: `${base}${basePath}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: version, tenant: '' },
    { url: `${base}${basePath}`, protocolBinding: 'HTTP+JSON', protocolVersion: version, tenant: '' },
    ...extra,
  ];
  const key = (i: AgentInterface) => `${i.protocolBinding} ${i.url} ${i.protocolVersion} ${i.tenant}`;
  const seen = new Set(ours.map(key));
  return [...ours, ...card.supportedInterfaces.filter((i) => !seen.has(key(i)))];
}

/**
 * Serves the public agent card: no version header or credentials required (discovery),
 * `Cache-Control: public, max-age=300`, a content-hash ETag and `Last-Modified` (when the
 * card last changed, see `CardClock`), with `If-None-Match` / `If-Modified-Since` → 304 so
 * polling clients revalidate cheaply (spec §8 caching).
 */
export function sendAgentCard(req: IncomingMessage, res: ServerResponse, card: AgentCard, headers: Readonly<Record<string, string>>, lastModified: Date): void {
  const body = JSON.stringify(AgentCard.toJSON(card));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const cacheHeaders = { ...headers, etag, 'last-modified': lastModified.toUTCString(), 'cache-control': `public, max-age=${CARD_MAX_AGE_SECONDS}` };
  if (notModified(req, etag, lastModified)) return sendEmpty(res, 304, cacheHeaders);
  res.writeHead(200, { ...cacheHeaders, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}
