/**
 * Turns the schema's issues into the one-line {@link ConfigError} operators read:
 * `Invalid configuration: <source><path> must be <expectation> (got <value>)`, or
 * `unknown key <path> (known: …)`. The path names the bad value (`agents[1].settings`,
 * `store.url`); secrets are never echoed (API keys, URL passwords).
 */
import type { z } from 'zod';
import { ConfigError } from './errors.js';

/** Paths whose values (and map keys) are secrets: neither is shown; what each holds, for the message. */
const SECRET_PATHS: Readonly<Record<string, string>> = { 'auth.apiKeys': 'API keys', 'push.secretKey': 'a key' };

/** `agents[1].settings.url` from `['agents', 1, 'settings', 'url']`. */
export function pathText(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('');
}

/**
 * The ConfigError of the first issue (unknown keys first: a typo usually explains the rest).
 * `source` prefixes the path (`config file x.json: `); `input` is what was checked, to quote
 * the bad value.
 */
export function configErrorOf(error: z.ZodError, source: string, input: unknown): ConfigError {
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0];
  // zod reports at least one issue; without one, its own message is all there is to say.
  if (!issue) return new ConfigError(`Invalid configuration: ${source}${error.message}`);
  const secret = Object.keys(SECRET_PATHS).find((p) => pathText(issue.path).startsWith(p));
  if (issue.code === 'unrecognized_keys' && !secret) {
    const at = pathText(issue.path);
    const where = source.trim();
    return new ConfigError(`Invalid configuration: ${where ? `${where} ` : ''}unknown key ${at ? `${at}.` : ''}${issue.keys[0]} (${issue.message})`);
  }
  const path = secret ?? pathText(issue.path);
  const got = secret ? `the value is not shown: it holds ${SECRET_PATHS[secret]}` : `got ${quote(valueAt(input, issue.path))}`;
  const detail = `must be ${issue.message} (${got})`;
  return new ConfigError(`Invalid configuration: ${source}${path || 'configuration'} ${detail}`, detail);
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
