import parseForwarded from 'forwarded-parse';

/** What the client-facing proxy says the client asked for: scheme, host and the path prefix it routes under. */
export interface ForwardedOrigin {
  readonly proto?: string;
  readonly host?: string;
  /** `X-Forwarded-Prefix`, without a trailing slash; only a plain absolute path (no `..`, no query). */
  readonly prefix?: string;
}

/** What an `X-Forwarded-Prefix` may be: absolute path segments of URL path characters, no dot segments. */
const PREFIX_PATTERN = /^(\/(?!\.\.?(\/|$))[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+\/?$/;

/**
 * The forwarded origin of a request, read from RFC 7239 `Forwarded` (its first element:
 * what the proxy facing the client wrote) and, where it says nothing, from the de-facto
 * `X-Forwarded-Proto` / `X-Forwarded-Host` (first value), plus `X-Forwarded-Prefix`. Only to
 * be called for requests from a trusted proxy: any client can send these headers. Values are
 * returned as written (callers validate a host before echoing it); a `Forwarded` header that
 * does not parse is ignored as a whole. `forwarded-parse` reads RFC 7239 (quoted strings,
 * IPv6 nodes), which a split on `;` would get wrong. `header` reads a request header by its
 * lower-case name, repeated values joined with `,` (as `HttpExchangeRequest.header`), so
 * node:http and fetch requests are read by the same rules.
 */
export function forwardedOrigin(header: (name: string) => string | undefined): ForwardedOrigin {
  const rfc = firstForwardedElement(header('forwarded'));
  const prefix = firstValue(header('x-forwarded-prefix'));
  return {
    proto: (rfc?.proto ?? firstValue(header('x-forwarded-proto')))?.toLowerCase(),
    host: rfc?.host ?? firstValue(header('x-forwarded-host')),
    prefix: prefix !== undefined && PREFIX_PATTERN.test(prefix) ? prefix.replace(/\/+$/, '') : undefined,
  };
}

/** The first of a comma-separated (forwarded) header's values, trimmed; undefined when absent or empty. */
export function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const first = value?.split(',')[0]?.trim();
  return first === '' ? undefined : first;
}

function firstForwardedElement(header: string | string[] | undefined): { proto?: string; host?: string } | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return undefined;
  try {
    const [first] = parseForwarded(value);
    return first ? { proto: first.proto, host: first.host } : undefined;
  } catch {
    return undefined;
  }
}
