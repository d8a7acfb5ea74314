import { emptyResult, type HttpExchangeBody } from '@a2a-polyglot/http';

/** Request headers browsers may send to A2A endpoints. */
const ALLOWED_HEADERS = ['content-type', 'authorization', 'a2a-version', 'a2a-extensions', 'x-a2a-extensions', 'last-event-id', 'x-api-key'];
/** Response headers browser code may read. */
const EXPOSED_HEADERS = ['a2a-extensions', 'x-a2a-extensions'];

/**
 * The CORS headers of a response when CORS is on: `allowOrigin` is what `browserAccessCheck`
 * allowed (a listed origin, or `*` for public reads and `origins: ['*']`); none for the
 * server's own pages, which need no CORS. Never `Allow-Credentials`: A2A credentials travel in
 * headers (`Authorization`, API key), not in cookies. `Vary: Origin` because the answer
 * depends on it. Runtime-free: the node listener sets them on its response, the fetch handler
 * under the answer's own headers.
 */
export function corsHeaders(allowOrigin: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (allowOrigin !== '*') headers.vary = 'Origin';
  if (allowOrigin === undefined) return headers;
  headers['access-control-allow-origin'] = allowOrigin;
  headers['access-control-expose-headers'] = EXPOSED_HEADERS.join(', ');
  return headers;
}

/** The answer to a CORS preflight (OPTIONS): 204 with the methods and A2A headers allowed. */
export function preflightResult(): HttpExchangeBody {
  return emptyResult(204, {
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': ALLOWED_HEADERS.join(', '),
    'access-control-max-age': '600',
  });
}
