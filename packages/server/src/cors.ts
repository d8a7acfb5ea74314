import type { ServerResponse } from 'node:http';

/** Request headers browsers may send to A2A endpoints. */
const ALLOWED_HEADERS = ['content-type', 'authorization', 'a2a-version', 'a2a-extensions', 'x-a2a-extensions', 'last-event-id', 'x-api-key'];
/** Response headers browser code may read. */
const EXPOSED_HEADERS = ['a2a-extensions', 'x-a2a-extensions'];

/**
 * Headers every response carries when CORS is on. Origin `*` without credentials: A2A
 * credentials travel in headers (`Authorization`, API key), never in cookies.
 */
export function applyCorsHeaders(res: ServerResponse): void {
  res.setHeader('access-control-allow-origin', '*');
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
