import { REDACTED } from '@a2a-polyglot/bridges';
import type { Logger } from '@a2a-polyglot/core';
import pino, { type DestinationStream } from 'pino';
import pinoPretty from 'pino-pretty';
import type { LogFormat, LogLevel } from './config.js';
import { REDACTED_FIELD_NAMES, redactFields } from './redact-fields.js';

/**
 * The credential fields' rule as pino `redact` paths (`key`, `*.key`, `*.*.key`, `*.*.*.key`:
 * up to four levels deep, `{ err: { request: { headers: { authorization } } } }` as an HTTP
 * client's error carries it), for hosts configuring pino themselves. The executor applies the
 * same rule with {@link redactFields} (pino's redactor costs ~75 µs a line with these
 * wildcards). Secret VALUES quoted inside text (an upstream echoing an API key in its error)
 * are the bridges' `redactingLogger`'s job; together they cover what reaches a line.
 */
export const REDACTED_FIELDS: readonly string[] = [...REDACTED_FIELD_NAMES].flatMap((name) => {
  const segment = /^\w+$/.test(name) ? `.${name}` : `["${name}"]`;
  const key = /^\w+$/.test(name) ? name : `["${name}"]`;
  return [key, `*${segment}`, `*.*${segment}`, `*.*.*${segment}`];
});

/**
 * The executor's one logger: pino at `level`, credentials redacted ({@link redactFields}), `level` as its name
 * (`"info"`) and `time` as ISO 8601, written as `format` says: JSON lines (for collectors and
 * pipes) or pino-pretty's coloured one-line entries (for a person at a terminal). `format`
 * unset: pretty exactly when the lines go to stdout and stdout is a terminal, so
 * `a2a-executor | jq` and every container log stay JSON. Created once in `main` (or
 * `startExecutor`) and handed to every binding, store, bridge and push sender, which narrow it
 * per call (binding, reqId, operation, traceId, taskId; core's `lazyChild`). `err` is
 * serialized with pino's error serializer (name, message, stack).
 */
export function createLogger(level: LogLevel, destination?: DestinationStream, format?: LogFormat): Logger {
  const options: pino.LoggerOptions = {
    level,
    // Credentials removed by name (REDACTED_FIELDS' rule) from each line's fields; children's bindings below.
    formatters: {
      level: (label) => ({ level: label }),
      log: (fields) => redactFields(fields, REDACTED),
    },
    // Level names and ISO times read without a lookup table; pino-pretty shows either form.
    timestamp: isoTime,
  };
  const pretty = (format ?? (destination === undefined && process.stdout.isTTY ? 'pretty' : 'json')) === 'pretty';
  const stream = pretty ? prettyStream(destination) : destination;
  return redactingChildren(stream ? pino(options, stream) : pino(options));
}

/**
 * pino's `stdTimeFunctions.isoTime` (`,"time":"2026-01-01T00:00:00.000Z"`), formatted once per
 * millisecond: under load several lines share one, and `toISOString` was about a tenth of
 * what a task's end line cost (CPU profile of JSON-RPC SendMessage → Task at c=16).
 */
function isoTime(): string {
  const now = Date.now();
  if (now !== lastTimeMs) {
    lastTimeMs = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

let lastTimeMs = Number.NaN;
let lastTime = '';

/**
 * pino formats a child's bindings without `formatters.log` (and resets `formatters.bindings`
 * for children): the bindings are redacted on their way in. Set on the root, the method is
 * what every descendant inherits (pino's children are `Object.create(parent)`).
 */
function redactingChildren(root: pino.Logger): pino.Logger {
  const child = root.child;
  root.child = function redactedChild(this: pino.Logger, bindings, childOptions) {
    return child.call(this, redactFields(bindings, REDACTED), childOptions);
  } as typeof root.child;
  return root;
}

/**
 * pino-pretty as pino's destination, in this thread rather than as a worker transport: a
 * terminal session writes few lines, and a synchronous write loses none when the process exits
 * (a startup failure, a second Ctrl-C). Colours when the destination is a colour terminal.
 */
function prettyStream(destination: DestinationStream | undefined): DestinationStream {
  return pinoPretty({
    ...(destination ? { destination } : { destination: 1, sync: true }),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    // Request ids and task ids are long: one line per entry, its fields after the message.
    singleLine: true,
  });
}
