import type { IncomingMessage } from 'node:http';
import { AUTH_SUBPROTOCOL_PREFIX, SUBPROTOCOL } from './protocol.js';

/** Longest credential accepted in the auth subprotocol (decoded). */
const MAX_TOKEN_LENGTH = 8192;

/** Name of the query parameter that may carry the A2A version at upgrade (spec §3.2). */
export const VERSION_QUERY_PARAM = 'A2A-Version';

/** Request headers that describe the upgrade itself and never reach the core. */
const HANDSHAKE_HEADERS = new Set([
  'connection',
  'upgrade',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
  'sec-websocket-protocol',
]);

/** An accepted handshake: the service parameters every call on the socket starts from. */
export interface AcceptedHandshake {
  readonly ok: true;
  /** Lower-case header names → values: the upgrade request's headers plus credentials and version. */
  readonly headers: Readonly<Record<string, string>>;
}

/** A refused handshake: the HTTP status and a one-line reason for the client. */
export interface RefusedHandshake {
  readonly ok: false;
  readonly status: number;
  readonly reason: string;
}

/**
 * Checks an upgrade request and extracts the connection's service parameters:
 * - the client MUST offer the {@link SUBPROTOCOL} (400 otherwise);
 * - the Origin, when `allowedOrigins` is set, must be listed (403);
 * - `a2a.auth.<base64url token>` becomes `Authorization: Bearer <token>` unless the request
 *   already has an Authorization header (headers win); a malformed token is a 400;
 * - `?A2A-Version=` fills in `A2A-Version` when the header is absent.
 *
 * Authentication itself is not done here: the core's authenticator sees these values on
 * every call, exactly as it sees HTTP headers.
 */
export function checkHandshake(req: IncomingMessage, allowedOrigins?: readonly string[]): AcceptedHandshake | RefusedHandshake {
  const offered = offeredProtocols(req);
  if (!offered.includes(SUBPROTOCOL)) {
    return { ok: false, status: 400, reason: `Offer the "${SUBPROTOCOL}" subprotocol in Sec-WebSocket-Protocol` };
  }
  const origin = req.headers.origin;
  if (allowedOrigins && origin !== undefined && !allowedOrigins.includes(origin)) {
    return { ok: false, status: 403, reason: `Origin ${origin} is not allowed` };
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HANDSHAKE_HEADERS.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const tokens = offered.filter((p) => p.startsWith(AUTH_SUBPROTOCOL_PREFIX));
  if (tokens.length > 1) return { ok: false, status: 400, reason: 'Offer at most one a2a.auth.* subprotocol' };
  const [offeredToken] = tokens;
  if (offeredToken !== undefined) {
    const token = decodeToken(offeredToken.slice(AUTH_SUBPROTOCOL_PREFIX.length));
    if (token === undefined) return { ok: false, status: 400, reason: 'The a2a.auth.* subprotocol must carry a base64url-encoded printable token' };
    headers.authorization ??= `Bearer ${token}`;
  }
  if (headers['a2a-version'] === undefined) {
    const version = versionFromQuery(req.url);
    if (version !== undefined) headers['a2a-version'] = version;
  }
  return { ok: true, headers };
}

/** The subprotocols offered in `Sec-WebSocket-Protocol`, in order. */
export function offeredProtocols(req: IncomingMessage): string[] {
  const header = req.headers['sec-websocket-protocol'];
  if (!header) return [];
  return header
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** base64url (no padding) → printable ASCII token, or undefined when malformed. */
function decodeToken(encoded: string): string | undefined {
  if (encoded === '' || !/^[A-Za-z0-9_-]+$/.test(encoded)) return undefined;
  const token = Buffer.from(encoded, 'base64url').toString('utf8');
  if (token === '' || token.length > MAX_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token)) return undefined;
  return token;
}

function versionFromQuery(url: string | undefined): string | undefined {
  const q = url?.indexOf('?') ?? -1;
  if (url === undefined || q < 0) return undefined;
  const params = new URLSearchParams(url.slice(q + 1));
  return params.get(VERSION_QUERY_PARAM) ?? params.get(VERSION_QUERY_PARAM.toLowerCase()) ?? undefined;
}
