import { type A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { AgentCard } from '@a2a-polyglot/model';
import { cardJsonOfAnyVersion, isV03Card } from './card-v03.js';
import { clientError, notA2A } from './failures.js';
import { callHeaders, describeBody, isJsonMedia, mediaType, openHttp, readText, tryParseJson } from './http.js';

/** Where agents publish their card (RFC 8615, spec §8). */
export const WELL_KNOWN_CARD_PATH = '/.well-known/agent-card.json';
/** The card path of A2A ≤ v0.2 (spec §0 item 17), tried second. */
export const LEGACY_CARD_PATH = '/.well-known/agent.json';

/** Options of {@link resolveAgentCard}. */
export interface ResolveCardOptions {
  readonly fetch?: typeof fetch;
  /** Sent with the card GET, after `A2A-Version: 1.0` (which is always sent). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Bounds each GET. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** A validated card and where it was found. */
export interface ResolvedCard {
  readonly card: AgentCard;
  readonly url: string;
  /** The card JSON as served, before the lenient decoding: wrong types show only here (`cardJsonProblems`). */
  readonly json: unknown;
}

/**
 * The card URLs to try for what a user typed: a URL ending in `.json` is the card itself;
 * otherwise the well-known path under the given path (servers that mount A2A under a prefix
 * serve it there too), then at the origin, then the legacy path at the origin.
 */
export function cardCandidates(input: string): string[] {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw clientError(A2AErrorCode.InvalidParams, 'not-a2a', `"${input}" is not a URL (expected e.g. http://host:port)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw clientError(A2AErrorCode.InvalidParams, 'not-a2a', `"${input}" is not an http(s) URL; agent cards are fetched over HTTP`);
  }
  url.hash = '';
  if (url.pathname.endsWith('.json')) return [url.href];
  const path = url.pathname.replace(/\/+$/, '');
  const candidates = [`${url.origin}${path}${WELL_KNOWN_CARD_PATH}`, `${url.origin}${WELL_KNOWN_CARD_PATH}`, `${url.origin}${LEGACY_CARD_PATH}`];
  return [...new Set(candidates)];
}

/**
 * Finds, fetches and validates an agent's card. Tries each candidate of
 * {@link cardCandidates} while the server says "not here" (404, 405, 410); any other failure
 * is final and says exactly what went wrong: unreachable host, not an A2A server (HTML,
 * non-JSON), or a malformed card (which field).
 */
export async function resolveAgentCard(input: string, options: ResolveCardOptions = {}): Promise<ResolvedCard> {
  const fetchImpl = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const misses: string[] = [];
  for (const url of cardCandidates(input)) {
    const what = `GET ${url}`;
    const headers = callHeaders(options.headers, { Accept: 'application/json' });
    const open = await openHttp(fetchImpl, { url, method: 'GET', headers, signal: options.signal, timeoutMs: options.timeoutMs, what });
    const text = await readText(open, url);
    const { status } = open.response;
    if (status === 404 || status === 405 || status === 410) {
      misses.push(`${url} (${status})`);
      continue;
    }
    const type = mediaType(open.response);
    if (status === 401 || status === 403) throw clientError(A2AErrorCode.Unauthenticated, 'not-a2a', `${url} refused to serve the agent card (HTTP ${status})`);
    if (status < 200 || status > 299) throw notA2A(`${url} answered HTTP ${status} (${describeBody(type, text)}) instead of an agent card`);
    const json = tryParseJson(text);
    if (json === undefined || (!isJsonMedia(type) && type !== '' && type !== 'text/plain')) {
      throw notA2A(`${input} does not look like an A2A server: ${url} answered ${describeBody(type, text)} instead of a JSON agent card`);
    }
    return { card: validateAgentCard(json, url), url, json };
  }
  throw notA2A(`${input} does not look like an A2A server: no agent card at ${misses.join(', ')}`);
}

/**
 * Checks what the client relies on before decoding leniently (cards may carry fields of
 * other versions): a name, a non-empty `supportedInterfaces` whose entries have a URL and a
 * binding, and a `capabilities` object. A v0.3 card (`url` + `preferredTransport`, no
 * `supportedInterfaces`) is read through the v0.3 codec first (see `cardJsonOfAnyVersion`), so
 * its interfaces come out marked `protocolVersion: "0.3"`.
 */
export function validateAgentCard(json: unknown, source = 'the agent card'): AgentCard {
  const problems: string[] = [];
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw badCard(source, ['it is not a JSON object']);
  const raw = json as Record<string, unknown>;
  const card = cardJsonOfAnyVersion(raw);
  if (typeof card.name !== 'string' || card.name.trim() === '') problems.push('"name" is missing or empty');
  const interfaces = card.supportedInterfaces ?? card.supported_interfaces;
  if (interfaces === undefined) {
    problems.push('"supportedInterfaces" is missing');
  } else if (!Array.isArray(interfaces) || interfaces.length === 0) {
    problems.push(isV03Card(raw) ? 'the v0.3 card names no usable "url"' : '"supportedInterfaces" must be a non-empty array');
  } else {
    interfaces.forEach((entry, i) => {
      const e = entry as Record<string, unknown> | null;
      if (typeof e !== 'object' || e === null) {
        problems.push(`supportedInterfaces[${i}] is not an object`);
        return;
      }
      if (typeof e.url !== 'string' || e.url.trim() === '') problems.push(`supportedInterfaces[${i}].url is missing`);
      const binding = e.protocolBinding ?? e.protocol_binding;
      if (typeof binding !== 'string' || binding.trim() === '') problems.push(`supportedInterfaces[${i}].protocolBinding is missing`);
    });
  }
  // Checked on the card as served: the v0.3 translation always yields a capabilities object.
  if (typeof raw.capabilities !== 'object' || raw.capabilities === null || Array.isArray(raw.capabilities))
    problems.push('"capabilities" is missing or not an object');
  if (problems.length > 0) throw badCard(source, problems);
  try {
    return AgentCard.fromJSON(card);
  } catch (error) {
    throw badCard(source, [error instanceof Error ? error.message : String(error)]);
  }
}

function badCard(source: string, problems: string[]): A2AError {
  return clientError(A2AErrorCode.InvalidAgentResponse, 'bad-card', `Malformed agent card at ${source}: ${problems.join('; ')}`);
}
