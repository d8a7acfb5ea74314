import { A2AError, A2AErrorCode, isIpAddress, isLoopbackAddress, type Logger } from '@a2a-polyglot/core';
import { type HttpExchangeBody, jsonResult } from '@a2a-polyglot/http';
import { jsonRpcFailure } from '@a2a-polyglot/jsonrpc';
import { restError } from '@a2a-polyglot/rest';
import type { ArrivingRequest } from './arriving-request.js';
import type { A2AHttpOptions, CorsOptions } from './options.js';
import { HOST_PATTERN, publicBaseUrl } from './public-url.js';

/** Most Host values whose verdict {@link browserAccessCheck} remembers. */
const MAX_CACHED_HOSTS = 256;
/** Longest Host value remembered (a DNS name is at most 253 characters, plus a port). */
const MAX_CACHED_HOST_LENGTH = 300;

/** What {@link BrowserAccessCheck} decided for one request. */
export type BrowserAccess =
  /** Go on; `allowOrigin` is the `Access-Control-Allow-Origin` to send (none for the server's own origin or no Origin). */
  | { readonly ok: true; readonly allowOrigin?: string }
  /** Refuse with 403 and this one-line reason. */
  | { readonly ok: false; readonly reason: string };

/**
 * Decides whether a request may proceed. `publicRead` marks a path that serves what is
 * public anyway (the agent card, the agent index): any origin may read it.
 */
export type BrowserAccessCheck = (req: ArrivingRequest, publicRead?: boolean) => BrowserAccess;

/**
 * The checks that keep web pages away from an agent they were not allowed to call, for HTTP
 * requests and WebSocket upgrades alike. Why on the server and not left to the browser's
 * same-origin policy: with the defaults (loopback, no auth) nothing else stands between a page
 * and the tasks, and the policy protects only reads that CORS refuses. A page may still *send*
 * a simple POST (no custom header, a body without content type, which the bindings take as
 * JSON), open a WebSocket (browsers never ask the server first), or reach us under a DNS name
 * of its own that resolves to 127.0.0.1 (DNS rebinding), which makes it same-origin. So:
 * 1. the `Host` (with `trustProxy`, `X-Forwarded-Host` when present) must be an IP address,
 *    `localhost` or `*.localhost` (names a resolver cannot point elsewhere), the host of
 *    `publicBaseUrl`, or in `allowedHosts`; unless `allowedHosts` is unset and the request
 *    arrived on a non-loopback address (a service on the network is reached under names it
 *    cannot know, and rebinding aims at loopback services), or on a runtime that does not
 *    say where it arrived (fetch runtimes: set `allowedHosts` there to check the Host);
 * 2. an `Origin`, when present, must be the server's own (its host equals the `Host`, or it is
 *    the origin of the public base URL) or listed in `cors.origins`. Clients outside browsers
 *    send no `Origin` and are not affected.
 *
 * Runtime-free (over {@link ArrivingRequest}): the node listener, the WebSocket upgrade and the
 * fetch handler run this one check.
 */
export function browserAccessCheck(options: Pick<A2AHttpOptions, 'cors' | 'allowedHosts' | 'publicBaseUrl' | 'trustProxy'>): BrowserAccessCheck {
  const origins = new Set(corsOriginsOf(options.cors).map(normalizeOrigin));
  const anyOrigin = origins.has('*');
  const allowedHosts = options.allowedHosts?.map(normalizeHostName);
  const anyHost = allowedHosts?.includes('*') ?? false;
  const publicHost = options.publicBaseUrl && URL.canParse(options.publicBaseUrl) ? normalizeHostName(new URL(options.publicBaseUrl).hostname) : undefined;
  const trustProxy = options.trustProxy ?? false;
  // The listener's own addresses, so few that a plain map bounds itself; isLoopbackAddress
  // (ipaddr.js ranges) costs more than the rest of the check together.
  const loopbackLocal = new Map<string, boolean>();

  function arrivedOnLoopback(req: ArrivingRequest): boolean {
    const local = req.localAddress;
    if (local === undefined) return false; // the runtime does not say (fetch): as on a network address
    const known = loopbackLocal.get(local);
    if (known !== undefined) return known;
    const loopback = isLoopbackAddress(local);
    loopbackLocal.set(local, loopback);
    return loopback;
  }

  function hostAllowed(name: string): boolean {
    const bare = name.replace(/^\[|\]$/g, '');
    if (isIpAddress(bare) || name === 'localhost' || name.endsWith('.localhost') || name === publicHost) return true;
    return (allowedHosts ?? []).some((h) => h === name || (h.startsWith('.') && (name === h.slice(1) || name.endsWith(h))));
  }

  // The verdict per Host value: a client sends the same Host on every request, and deciding
  // it (pattern, IP parse) cost about 2 % of a JSON-RPC SendMessage's server CPU. Bounded: a
  // client that sends many Hosts empties it now and then (refusals are cached too, so a
  // refused Host costs no more than an allowed one).
  const hostVerdicts = new Map<string, string | undefined>();

  function hostRefusal(req: ArrivingRequest): string | undefined {
    if (anyHost || (allowedHosts === undefined && !arrivedOnLoopback(req))) return undefined;
    const named = (trustProxy ? req.forwarded?.().host : undefined) ?? req.header('host');
    if (named === undefined) return undefined; // HTTP/1.0 without a Host: no browser sends that
    if (hostVerdicts.has(named)) return hostVerdicts.get(named);
    const verdict = hostVerdict(named);
    if (named.length > MAX_CACHED_HOST_LENGTH) return verdict;
    if (hostVerdicts.size >= MAX_CACHED_HOSTS) hostVerdicts.clear();
    hostVerdicts.set(named, verdict);
    return verdict;
  }

  function hostVerdict(named: string): string | undefined {
    const name = hostNameOf(named);
    if (name === undefined) return `The Host ${JSON.stringify(named.slice(0, 100))} is malformed`;
    if (hostAllowed(name)) return undefined;
    return `Host ${name} is not served here (add it to the allowed hosts; DNS rebinding protection)`;
  }

  function isOwnOrigin(req: ArrivingRequest, origin: URL): boolean {
    const host = req.header('host');
    const own =
      host !== undefined && HOST_PATTERN.test(host) && URL.canParse(`${origin.protocol}//${host}`) ? new URL(`${origin.protocol}//${host}`) : undefined;
    if (own?.host === origin.host) return true;
    return new URL(publicBaseUrl(req, options.publicBaseUrl, trustProxy)).origin === origin.origin;
  }

  return (req, publicRead = false) => {
    const refusal = hostRefusal(req);
    if (refusal !== undefined) return { ok: false, reason: refusal };
    if (publicRead) return { ok: true, allowOrigin: '*' };
    const origin = req.header('origin')?.trim() || undefined;
    if (origin === undefined) return { ok: true };
    if (anyOrigin) return { ok: true, allowOrigin: '*' };
    // Browsers send the origin serialized (lower case, no default port), as the list is kept.
    if (origins.has(origin)) return { ok: true, allowOrigin: origin };
    const parsed = URL.canParse(origin) ? new URL(origin) : undefined;
    if (parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:') && isOwnOrigin(req, parsed)) return { ok: true };
    return { ok: false, reason: `Pages of ${origin.slice(0, 200)} may not call this agent (add the origin to the CORS origins)` };
  };
}

/**
 * The answer to a request {@link browserAccessCheck} refused: 403 PERMISSION_DENIED with the
 * reason, as a JSON-RPC error on the JSON-RPC path and a REST error elsewhere. Logged as a
 * warning so an operator sees which Host or Origin to allow.
 */
export function accessRefusal(reason: string, options: { readonly jsonRpc?: boolean; readonly logger?: Logger } = {}): HttpExchangeBody {
  options.logger?.warn({ reason }, 'Request refused by the browser access check');
  const error = new A2AError(A2AErrorCode.PermissionDenied, reason);
  return jsonResult(403, options.jsonRpc ? jsonRpcFailure(null, error) : restError(error, undefined, 403).body);
}

/** The listed origins of a `cors` option (`true`, `false` and `{}` list none). */
function corsOriginsOf(cors: boolean | CorsOptions | undefined): readonly string[] {
  return typeof cors === 'object' ? (cors.origins ?? []) : [];
}

/** `https://App.example.com:443/` → `https://app.example.com`, as browsers send it; `*` and `null` stay. */
function normalizeOrigin(origin: string): string {
  const trimmed = origin.trim();
  if (!URL.canParse(trimmed)) return trimmed;
  const url = new URL(trimmed);
  return url.origin === 'null' ? trimmed : url.origin;
}

/** A host name as compared: lower case, without a trailing dot. */
function normalizeHostName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

/** The host name of a Host value (`[::1]:8080` → `[::1]`), or undefined when malformed. */
function hostNameOf(value: string): string | undefined {
  if (!HOST_PATTERN.test(value)) return undefined;
  const name = value.startsWith('[') ? value.slice(0, value.indexOf(']') + 1) : value.replace(/:\d+$/, '');
  return normalizeHostName(name);
}
