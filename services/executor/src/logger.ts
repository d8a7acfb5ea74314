import { REDACTED } from '@a2a-polyglot/bridges';
import type { Logger } from '@a2a-polyglot/core';
import pino, { type DestinationStream } from 'pino';
import type { LogLevel } from './config.js';

/**
 * Fields that hold credentials, removed by name from every log line (pino's `redact`, up to
 * four levels deep: `{ authorization }`, `{ err: { request: { headers: { authorization } } } }`
 * as an HTTP client's error carries it). Secret VALUES quoted inside text (an upstream echoing
 * an API key in its error) are the bridges' `redactingLogger`'s job; together they cover what
 * reaches a line.
 */
export const REDACTED_FIELDS: readonly string[] = [
  'authorization',
  'cookie',
  'apiKey',
  'api_key',
  'token',
  'accessToken',
  'refreshToken',
  'password',
  'secret',
  'credentials',
  '["x-api-key"]',
].flatMap((key) => {
  const segment = key.startsWith('[') ? key : `.${key}`;
  return [key, `*${segment}`, `*.*${segment}`, `*.*.*${segment}`];
});

/**
 * The executor's one logger: pino, JSON lines on stdout (or `destination`), at `level`,
 * credentials redacted, `level` as its name (`"info"`) and `time` as ISO 8601. Created once
 * in `main` (or `startExecutor`) and handed to every
 * binding, store, bridge and push sender, which add their fields (binding, reqId, traceId,
 * taskId) with `child`. `err` is serialized with pino's error serializer (name, message,
 * stack).
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: { paths: [...REDACTED_FIELDS], censor: REDACTED },
    // Level names and ISO times read without a lookup table; pino-pretty shows either form.
    formatters: { level: (label) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}
