/**
 * Turns the schema's issues into the {@link ConfigError} operators read, one line per problem:
 * `Invalid configuration: <source><path> must be <expectation> (got <value>)`, or
 * `unknown key <path> (did you mean <key>?)` (or `(known: …)` when no key is close). The path names the bad value (`agents[1].settings`,
 * `store.url`); secrets are never echoed (API keys, URL passwords).
 */
import type { z } from 'zod';
import { closest, distance } from 'fastest-levenshtein';
import { ConfigError, configErrorOfAll } from './errors.js';

/** Paths whose values (and map keys) are secrets: neither is shown; what each holds, for the message. */
const SECRET_PATHS: Readonly<Record<string, string>> = { 'auth.apiKeys': 'API keys', 'push.secretKey': 'a key' };

/** `agents[1].settings.url` from `['agents', 1, 'settings', 'url']`. */
export function pathText(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('');
}

/**
 * The ConfigError of every issue zod found (it checks the whole layer, not up to the first
 * mistake), unknown keys first: a typo usually explains the rest. Each unknown key is its own
 * problem, with the closest known key as a suggestion (`unknown key sotre (did you mean
 * store?)`), else the keys it knows (`unknown key colour (known: …)`). `source` prefixes the path (`config file x.json: `); `input` is what
 * was checked, to quote the bad value. One issue gives the one-line message it always did.
 */
export function configErrorOf(error: z.ZodError, source: string, input: unknown): ConfigError {
  // One problem per bad value: a value that fails two rules (not a URL, and so not one without
  // a query either) is one mistake to fix.
  const seen = new Set<string>();
  const values = error.issues.filter((i) => {
    if (i.code === 'unrecognized_keys') return false;
    const at = pathText(i.path);
    if (seen.has(at)) return false;
    seen.add(at);
    return true;
  });
  const issues = [...error.issues.filter((i) => i.code === 'unrecognized_keys'), ...values];
  // zod reports at least one issue; without one, its own message is all there is to say.
  if (issues.length === 0) return new ConfigError(`Invalid configuration: ${source}${error.message}`);
  return configErrorOfAll(issues.flatMap((issue) => issueErrors(issue, source, input)));
}

/** The ConfigErrors of one issue: one per unknown key, else one for the bad value. */
function issueErrors(issue: z.core.$ZodIssue, source: string, input: unknown): ConfigError[] {
  // An agent's own auth (`agents[0].auth.apiKeys`) holds its secrets at the same place.
  const inAgent = issue.path[0] === 'agents' && typeof issue.path[1] === 'number' ? `agents[${issue.path[1]}].` : '';
  const ownPath = pathText(inAgent ? issue.path.slice(2) : issue.path);
  const secret = Object.keys(SECRET_PATHS).find((p) => ownPath.startsWith(p));
  if (issue.code === 'unrecognized_keys' && !secret) {
    const at = pathText(issue.path);
    const where = source.trim();
    const known = knownKeys(issue.message);
    return issue.keys.map((key) => {
      const guess = closestKey(key, known);
      // With a likely fix at hand the list of every known key is only noise.
      const hint = guess === undefined ? issue.message : `did you mean ${at ? `${at}.` : ''}${guess}?`;
      return new ConfigError(`Invalid configuration: ${where ? `${where} ` : ''}unknown key ${at ? `${at}.` : ''}${key} (${hint})`);
    });
  }
  const path = secret ? `${inAgent}${secret}` : pathText(issue.path);
  const got = secret ? `the value is not shown: it holds ${SECRET_PATHS[secret]}` : `got ${quote(valueAt(input, issue.path))}`;
  const detail = `must be ${issue.message} (${got})`;
  return [new ConfigError(`Invalid configuration: ${source}${path || 'configuration'} ${detail}`, detail)];
}

/**
 * The keys an object knows, from its unknown-key message (`known: a, b, c`, written by the
 * schema's `section`): zod's issue names the unknown keys only, not the shape they missed.
 */
function knownKeys(message: string): string[] {
  return message.startsWith('known: ') ? message.slice('known: '.length).split(', ') : [];
}

/**
 * The known key `key` most likely meant: the nearest by edit distance (fastest-levenshtein),
 * case ignored, if at most a third of its letters differ (at least 2: a swap of two letters,
 * `prot` for `port`, is two edits), or the one known key it begins (`stream` → `streaming`)
 * when no key is as near in edits (`prot` begins `protocol` but is nearer `port`); else
 * undefined.
 */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const lower = key.toLowerCase();
  const best = closest(
    lower,
    known.map((k) => k.toLowerCase()),
  );
  const match = known.find((k) => k.toLowerCase() === best);
  const near = match !== undefined && distance(lower, best) <= Math.max(2, Math.floor(key.length / 3)) ? match : undefined;
  // A key cut short (`stream` for `streaming`) is far in edits but plainly meant.
  const extended = lower.length >= 4 ? known.filter((k) => k.toLowerCase().startsWith(lower)) : [];
  const [only] = extended;
  if (extended.length === 1 && only !== undefined && (near === undefined || distance(lower, only.toLowerCase()) <= distance(lower, best))) return only;
  return near;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/** The value as JSON, with a URL's user info masked (`postgres://***@host`). */
function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.replace(/\/\/[^@/"]*@/g, '//***@');
}
