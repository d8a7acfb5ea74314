import { retryAfterSeconds, type A2AError } from '@a2a-polyglot/core';

/**
 * The HTTP headers an error answer needs, the same on the JSON-RPC and REST bindings (both
 * generations): a `WWW-Authenticate` challenge on 401, no keep-alive after a 413 (the rest
 * of the oversize body is not read), and `Retry-After` on a rate-limit refusal, so HTTP
 * clients and proxies back off without reading the body.
 */
export function errorHeaders(status: number, error?: A2AError): Record<string, string> {
  const headers: Record<string, string> = {};
  if (status === 401) headers['www-authenticate'] = 'Bearer';
  if (status === 413) headers.connection = 'close';
  const retryAfter = error && retryAfterSeconds(error);
  if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
  return headers;
}
