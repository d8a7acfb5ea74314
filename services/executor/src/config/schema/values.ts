/**
 * The value schemas every config section is built from (ports, durations, URLs, names). Each
 * carries one expectation as its error message ("an integer between 0 and 65535"), which the
 * error formatter turns into `<path> must be <expectation> (got <value>)`, whatever check of
 * the value failed. Normalising transforms (trailing slashes) live here too; they do not
 * change what the JSON Schema accepts.
 */
import { z } from 'zod';

/** Every check of `schema` reports `expectation` (the schema's own messages say less). */
const says = (expectation: string) => ({ error: expectation });

/** Any string. */
export const str = z.string(says('a string'));

/** A string that is not blank. */
export const nonEmpty = z.string(says('a non-empty string')).refine((v) => v.trim() !== '', says('a non-empty string'));

/** `true` or `false`. */
export const bool = z.boolean(says('true or false'));

/** An array of strings. */
export const strings = z.array(z.string(says('an array of strings')), says('an array of strings'));

/** An integer in `[min, max]`. */
export function intIn(min: number, max: number) {
  const expectation = says(`an integer between ${min} and ${max}`);
  return z.int(expectation).min(min, expectation).max(max, expectation);
}

/** A TCP port; 0 picks a free one. */
export const port = intIn(0, 65535);

/** A duration in milliseconds, at most a day. */
export const nonNegativeMs = intIn(0, 24 * 60 * 60 * 1000);

/** A size in bytes, at most 1 GiB. */
export const positiveBytes = intIn(1, 1024 * 1024 * 1024);

/** One of `values`; the message lists them. */
export function oneOf<const T extends string>(values: readonly T[]) {
  // z.enum wants a non-empty tuple; every caller passes a non-empty list.
  return z.enum(values as readonly [T, ...T[]], says(`one of ${values.join(', ')}`));
}

/** What a gRPC port setting accepts, in messages (shared with the text conversion of env and flags). */
export const PORT_OR_OFF = 'a port between 0 and 65535, or off / false / -1 to disable gRPC';

/** A port, or `false` / `-1` / `"off"` for "gRPC off" (env and flag text `false` arrives here as `false`). */
export const portOrOff = z
  .union([z.int(says(PORT_OR_OFF)).min(-1, says(PORT_OR_OFF)).max(65535, says(PORT_OR_OFF)), z.literal(false), z.literal('off')], says(PORT_OR_OFF))
  .transform((v): number | false => (v === false || v === -1 || v === 'off' ? false : v));

/** A URL path prefix such as `/a2a`; trailing slashes are removed (so the root, `/`, becomes `""`). */
export const basePath = z
  .string(says('a URL path such as "/a2a" (or "/" for the root)'))
  .regex(/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*\/?$/, says('a URL path such as "/a2a" (or "/" for the root)'))
  .transform((v) => v.replace(/\/+$/, ''));

/** True for an absolute http(s) URL without query or fragment. */
function isPlainHttpUrl(v: string): boolean {
  if (!URL.canParse(v)) return false;
  const url = new URL(v);
  return (url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash;
}

/** An absolute http(s) URL without query or fragment; trailing slashes are removed. */
export const absoluteUrl = z
  .string(says('an absolute http(s) URL'))
  .refine((v) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol), says('an absolute http(s) URL'))
  .refine(isPlainHttpUrl, says('a URL without query or fragment'))
  .transform((v) => v.replace(/\/+$/, ''));

const GRPC_PUBLIC_URL = 'host:port (e.g. "agents.example.com:443") or a URL such as "https://agents.example.com"';

/** True for `host:port` (IPv6 in brackets), or an absolute URL without path, query or fragment. */
function isGrpcPublicUrl(v: string): boolean {
  if (v === '' || /\s/.test(v)) return false;
  if (/^([^\s/:[\]]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/.test(v)) return Number(v.slice(v.lastIndexOf(':') + 1)) <= 65535;
  if (!URL.canParse(v)) return false;
  const url = new URL(v);
  return (
    ['http:', 'https:', 'grpc:', 'grpcs:'].includes(url.protocol) &&
    Boolean(url.hostname) &&
    (url.pathname === '/' || url.pathname === '') &&
    !url.search &&
    !url.hash
  );
}

/** The card's GRPC url: `host:port`, or an absolute URL without path, query or fragment. */
export const grpcPublicUrl = z
  .string(says(GRPC_PUBLIC_URL))
  .refine(isGrpcPublicUrl, says(GRPC_PUBLIC_URL))
  .transform((v) => v.replace(/\/+$/, ''));

/** A connection URL with one of `protocols` (the error formatter hides its password). */
export function connectionUrl(...protocols: string[]) {
  const expectation = says(`a ${protocols.map((p) => `${p}//`).join(' or ')} URL`);
  return z.string(expectation).refine((v) => URL.canParse(v) && protocols.includes(new URL(v).protocol), expectation);
}

/** A string matching `pattern`, described by `expectation`. */
export function matching(pattern: RegExp, expectation: string) {
  return z.string(says(expectation)).regex(pattern, says(expectation));
}

/** An agent id is a URL path segment (`/agents/{id}/...`). */
export const agentId = matching(
  /^[A-Za-z0-9][A-Za-z0-9._~-]{0,63}$/,
  'an id of letters, digits, ".", "_", "~" or "-" (at most 64, not starting with a symbol)',
);

/**
 * An object with exactly `shape`'s keys: a typo in a config file should not silently do
 * nothing. An unknown key is reported with the keys this object knows.
 */
export function section<S extends z.ZodRawShape>(shape: S, expectation = 'an object') {
  const known = `known: ${Object.keys(shape).join(', ')}`;
  return z.strictObject(shape, { error: (issue) => (issue.code === 'unrecognized_keys' ? known : expectation) });
}

/** A JSON object of anything (handler settings: the handler's own schema checks them). */
export const anyObject = z.record(z.string(), z.unknown(), says('an object'));
