import type { IncomingMessage } from 'node:http';

/** The JSON media types A2A HTTP bindings accept for request bodies. */
export const JSON_MEDIA_TYPES: readonly string[] = ['application/json', 'application/a2a+json'];

/** The media type of an HTTP header value, lower-cased, without parameters (`charset=...`). */
export function mediaType(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const semicolon = value.indexOf(';');
  const type = (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  return type === '' ? undefined : type;
}

/**
 * True when the request declares a JSON body (`application/json` or `application/a2a+json`,
 * any parameters), or declares no content type at all: many simple clients omit it, and the
 * body is parsed strictly anyway.
 */
export function isJsonContentType(req: IncomingMessage): boolean {
  return isJsonMediaType(req.headers['content-type']);
}

/** {@link isJsonContentType} of a `Content-Type` value (any runtime): a JSON media type, or none at all. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  return type === undefined || JSON_MEDIA_TYPES.includes(type);
}

/** A single header value (first of repeated values), trimmed; undefined when absent or empty. */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const raw = req.headers[name.toLowerCase()];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value === '' ? undefined : value;
}

/**
 * The `A2A-Extensions` response header for the extensions the core activated for a call
 * (empty object when none), so agents' clients see which of their opt-ins took effect.
 * v0.3 calls name it `X-A2A-Extensions` (spec §12.4), so `name` follows the call's generation.
 */
export function extensionsHeader(
  activated: readonly string[] | undefined,
  name: 'a2a-extensions' | 'x-a2a-extensions' = 'a2a-extensions',
): Record<string, string> {
  return activated && activated.length > 0 ? { [name]: activated.join(', ') } : {};
}
