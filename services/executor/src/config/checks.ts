/**
 * Value checkers shared by every layer: each takes a raw value and the place it came from,
 * and returns the typed value or throws a one-line {@link ConfigError} naming that place.
 * Secrets (API keys, database passwords) never appear in the messages.
 */
import { ConfigError } from './errors.js';
import type { LogLevel } from './types.js';

/** A checker: returns `value` typed (possibly normalised) or throws a {@link ConfigError} naming `where`. */
export type Check<T> = (value: unknown, where: string) => T;

/** Marks a value that must not be echoed in messages (API keys). */
export const SECRET = Symbol('secret');

/**
 * Throws the {@link ConfigError} of a bad value: `where` names the key (and its source), and
 * `detail` says what was expected and what came (or only that it is hidden, for {@link SECRET}).
 */
export function fail(where: string, expectation: string, value: unknown): never {
  const got = value === SECRET ? 'the value is not shown: it holds API keys' : `got ${JSON.stringify(value) ?? String(value)}`;
  const detail = `must be ${expectation} (${got})`;
  throw new ConfigError(`Invalid configuration: ${where} ${detail}`, detail);
}

/** Any string. */
export const str: Check<string> = (v, where) => (typeof v === 'string' ? v : fail(where, 'a string', v));
/** A string that is not blank. */
export const nonEmpty: Check<string> = (v, where) => (typeof v === 'string' && v.trim() !== '' ? v : fail(where, 'a non-empty string', v));
/** `true` or `false`. */
export const bool: Check<boolean> = (v, where) => (typeof v === 'boolean' ? v : fail(where, 'true or false', v));
/** An array of strings (copied). */
export const strings: Check<string[]> = (v, where) =>
  Array.isArray(v) && v.every((s) => typeof s === 'string') ? [...(v as string[])] : fail(where, 'an array of strings', v);
/** An integer in `[min, max]`. */
export const intIn =
  (min: number, max: number): Check<number> =>
  (v, where) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : fail(where, `an integer between ${min} and ${max}`, v);
/** A TCP port; 0 picks a free one. */
export const port = intIn(0, 65535);
/** A duration in milliseconds, at most a day. */
export const nonNegativeMs = intIn(0, 24 * 60 * 60 * 1000);
/** A size in bytes, at most 1 GiB. */
export const positiveBytes = intIn(1, 1024 * 1024 * 1024);
/** One of the {@link LogLevel}s. */
export const logLevel: Check<LogLevel> = (v, where) =>
  v === 'debug' || v === 'info' || v === 'warn' || v === 'error' ? v : fail(where, 'one of debug, info, warn, error', v);

/** What a gRPC port setting accepts, in messages (shared with the text conversion of env and flags). */
export const PORT_OR_OFF = 'a port between 0 and 65535, or off / false / -1 to disable gRPC';

/** A port, or `false` / `-1` / `"off"` for "gRPC off" (env and flag text `false` arrives here as `false`). */
export const portOrOff: Check<number | false> = (v, where) => {
  if (v === false || v === -1 || v === 'off') return false;
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 65535 ? v : fail(where, PORT_OR_OFF, v);
};

/** The card's GRPC url: `host:port` (IPv6 in brackets), or an absolute URL without path, query or fragment. */
export const grpcPublicUrl: Check<string> = (v, where) => {
  const expected = 'host:port (e.g. "agents.example.com:443") or a URL such as "https://agents.example.com"';
  if (typeof v !== 'string' || /\s/.test(v) || v === '') fail(where, expected, v);
  if (/^([^\s/:[\]]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/.test(v) && Number(v.slice(v.lastIndexOf(':') + 1)) <= 65535) return v;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    fail(where, expected, v);
  }
  if (!['http:', 'https:', 'grpc:', 'grpcs:'].includes(url.protocol) || !url.hostname || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) fail(where, expected, v);
  return v.replace(/\/+$/, '');
};

/** A URL path prefix such as `/a2a`; trailing slashes are removed (so the root, `/`, becomes `""`). */
export const basePath: Check<string> = (v, where) => {
  if (typeof v !== 'string' || !/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*\/?$/.test(v)) fail(where, 'a URL path such as "/a2a" (or "/" for the root)', v);
  return v.replace(/\/+$/, '');
};

/** An absolute http(s) URL without query or fragment; trailing slashes are removed. */
export const absoluteUrl: Check<string> = (v, where) => {
  if (typeof v !== 'string') fail(where, 'an absolute http(s) URL', v);
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    fail(where, 'an absolute http(s) URL', v);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(where, 'an absolute http(s) URL', v);
  if (url.search || url.hash) fail(where, 'a URL without query or fragment', v);
  return v.replace(/\/+$/, '');
};

/** A plain object (not null, not an array). */
export function record(v: unknown, where: string): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : fail(where, 'an object', v);
}

/** Rejects keys we do not know: a typo in a config file should not silently do nothing. */
export function knownKeys(obj: Record<string, unknown>, allowed: readonly string[], where: string): void {
  // `where` is "<source>: <path>" (source optional), e.g. "config file x.json: agent".
  const cut = where.lastIndexOf(': ') + 1;
  const source = where.slice(0, cut).trim();
  const path = where.slice(cut).trim();
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      throw new ConfigError(`Invalid configuration: ${source ? `${source} ` : ''}unknown key ${path ? `${path}.` : ''}${key} (known: ${allowed.join(', ')})`);
    }
  }
}

/** A map of API keys to principal ids; its content never appears in messages. */
export const apiKeys: Check<Record<string, string>> = (v, where) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(where, 'an object mapping API keys to principal ids', SECRET);
  const obj = v as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [key, principal] of Object.entries(obj)) {
    if (key.trim() === '') fail(where, 'a map of non-empty API keys to principal ids', SECRET);
    if (typeof principal !== 'string' || principal.trim() === '') fail(where, 'a map of API keys to non-empty principal ids', SECRET);
    out[key] = principal;
  }
  return out;
};

/** One of the given strings. */
export function oneOf<T extends string>(...values: T[]): Check<T> {
  return (v, where) => (values.includes(v as T) ? (v as T) : fail(where, `one of ${values.join(', ')}`, v));
}

/** A connection URL with one of `protocols`; its password never appears in messages. */
export function connectionUrl(...protocols: string[]): Check<string> {
  return (v, where) => {
    let url: URL | undefined;
    try {
      url = typeof v === 'string' ? new URL(v) : undefined;
    } catch {
      url = undefined;
    }
    if (!url || !protocols.includes(url.protocol)) fail(where, `a ${protocols.map((p) => `${p}//`).join(' or ')} URL`, typeof v === 'string' ? v.replace(/\/\/[^@/]*@/, '//***@') : v);
    return v as string;
  };
}

/** An agent id is a URL path segment (`/agents/{id}/...`). */
export const agentId: Check<string> = (v, where) =>
  typeof v === 'string' && /^[A-Za-z0-9][A-Za-z0-9._~-]{0,63}$/.test(v) ? v : fail(where, 'an id of letters, digits, ".", "_", "~" or "-" (at most 64, not starting with a symbol)', v);
