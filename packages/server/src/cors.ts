import type { ServerResponse } from 'node:http';

/** Request headers browsers may send to A2A endpoints. */
const ALLOWED_HEADERS = ['content-type', 'authorization', 'a2a-version', 'a2a-extensions', 'x-a2a-extensions', 'last-event-id', 'x-api-key'];
/** Response headers browser code may read. */
const EXPOSED_HEADERS = ['a2a-extensions', 'x-a2a-extensions'];

/**
 * The CORS headers of a response when CORS is on: `allowOrigin` is what `browserAccessCheck`
 * allowed (a listed origin, or `*` for public reads and `origins: ['*']`); none for the
 * server's own pages, which need no CORS. Never `Allow-Credentials`: A2A credentials travel in
 * headers (`Authorization`, API key), not in cookies. `Vary: Origin` because the answer
 * depends on it.
 */
export function applyCorsHeaders(res: ServerResponse, allowOrigin: string | undefined): void {
  if (allowOrigin !== '*') res.setHeader('vary', 'Origin');
  if (allowOrigin === undefined) return;
  res.setHeader('access-control-allow-origin', allowOrigin);
  res.setHeader('access-control-expose-headers', EXPOSED_HEADERS.join(', '));
}

/** Answers a CORS preflight (OPTIONS) with 204. */
export function sendPreflight(res: ServerResponse): void {
  res.writeHead(204, {
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': ALLOWED_HEADERS.join(', '),
    'access-control-max-age': '600',
  });
  res.end();
}
