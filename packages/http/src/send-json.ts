import type { ServerResponse } from 'node:http';

/**
 * Writes a complete JSON response. Does nothing if the client is gone or headers were
 * already sent (a late error after streaming started is the binding's business), so callers
 * in `catch` blocks can use it without re-checking.
 *
 * @param body serialised with `JSON.stringify`; `undefined` sends an empty body.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  contentType = 'application/json',
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = body === undefined ? '' : JSON.stringify(body);
  const all: Record<string, string | number> = { ...headers };
  if (text !== '') {
    all['content-type'] = contentType;
    all['content-length'] = Buffer.byteLength(text);
  }
  res.writeHead(status, all);
  res.end(text);
}

/** Sends a status with no body (204, 304, 405 preflights ...). */
export function sendEmpty(res: ServerResponse, status: number, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, headers);
  res.end();
}
