/**
 * Layers written as text (environment variables and CLI flags): each value is converted from
 * text (`"8080"` to 8080, `"true"` to true) and then checked against the config schema like a
 * config file value, with errors naming the variable or flag the operator typed.
 */
import { ConfigError, configErrorOfAll, invalidValue as fail } from './errors.js';
import { parseConfigInput } from './parse.js';
import { PORT_OR_OFF } from './schema/values.js';
import type { ExecutorConfigInput } from './types.js';

/** Turns `"8080"` into 8080, `"true"` into true, etc., so one checker serves files and env alike. */
function fromText(text: string, kind: TextKind, where: string): unknown {
  switch (kind) {
    case 'int':
      return /^\s*-?\d+\s*$/.test(text) ? Number(text) : fail(where, 'an integer', text);
    case 'portOrOff': {
      const t = text.trim().toLowerCase();
      if (t === 'off' || t === 'false') return false;
      return /^-?\d+$/.test(t) ? Number(t) : fail(where, PORT_OR_OFF, text);
    }
    case 'bool': {
      const t = text.trim().toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(t)) return true;
      if (['false', '0', 'no', 'off'].includes(t)) return false;
      return fail(where, 'true or false', text);
    }
    case 'keys': {
      const out: Record<string, string> = {};
      for (const pair of text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
        const eq = pair.indexOf('=');
        if (eq <= 0 || eq === pair.length - 1)
          fail(where, 'a list like "key1=principal1,key2=principal2"', undefined, 'the value is not shown: it holds API keys');
        out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
      }
      return out;
    }
    case 'list':
      // Comma-separated, blanks dropped: "a, b," is ["a", "b"].
      return text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    default:
      return text;
  }
}

type TextKind = 'int' | 'portOrOff' | 'bool' | 'string' | 'keys' | 'list';

const KIND: Record<string, TextKind> = {
  port: 'int',
  grpcPort: 'portOrOff',
  maxBodyBytes: 'int',
  sseHeartbeatMs: 'int',
  streamStallTimeoutMs: 'int',
  listTasksMaxBytes: 'int',
  idempotencyWindowMs: 'int',
  shutdownGraceMs: 'int',
  'demo.chunkDelayMs': 'int',
  trustProxy: 'bool',
  websocketInCard: 'bool',
  inspector: 'bool',
  strictRequests: 'bool',
  'cors.origins': 'list',
  allowedHosts: 'list',
  'agent.acceptAnyInputMode': 'bool',
  'push.allowPrivateNetworks': 'bool',
  'auth.apiKeys': 'keys',
  'auth.jwtClockToleranceSec': 'int',
  'auth.jwtRequireExp': 'bool',
  'auth.jwtMaxLifetimeSec': 'int',
  'auth.jwksTimeoutMs': 'int',
  'auth.jwksMaxBytes': 'int',
  'store.maxConnections': 'int',
  'store.retentionMs': 'int',
  'store.memoryMaxBytes': 'int',
  'store.memoryInterruptedIdleMs': 'int',
  'eventLog.retentionMs': 'int',
  'eventLog.maxEventsPerTask': 'int',
  'eventLog.memoryMaxBytes': 'int',
  'eventLog.maxBytesPerTask': 'int',
  'lease.ttlMs': 'int',
  'lease.sweepIntervalMs': 'int',
  'agentRegistry.resyncMs': 'int',
  'agentRegistry.moduleDirs': 'list',
  'agentRegistry.modulePackages': 'list',
  'agentRegistry.loadTimeoutMs': 'int',
  'agentRegistry.maxCardBytes': 'int',
  'rateLimit.addressPoints': 'int',
  'rateLimit.addressWindowSec': 'int',
  'rateLimit.identityPoints': 'int',
  'rateLimit.identityWindowSec': 'int',
  'rateLimit.maxKeys': 'int',
  'tls.clientCertIdentity': 'bool',
  'protocol.experimental11': 'bool',
  'protocol.longPollMaxMs': 'int',
};

/**
 * Builds one layer from `[dotted key, text, variable-or-flag name]` entries. Each entry is
 * checked on its own so an error names the variable or flag the operator actually typed; the
 * error lists every bad entry.
 */
export function layerFromText(entries: ReadonlyArray<readonly [path: string, text: string, where: string]>, baseDir: string): ExecutorConfigInput {
  let layer: ExecutorConfigInput = {};
  const errors: ConfigError[] = [];
  for (const [path, text, where] of entries) {
    let parsed: ExecutorConfigInput;
    try {
      parsed = parseConfigInput(nestedAt(path.split('.'), fromText(text, KIND[path] ?? 'string', where)), '', baseDir);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      // Every bad variable or flag is reported, not just the first.
      errors.push(error.detail ? new ConfigError(`Invalid configuration: ${where} ${error.detail}`, error.detail) : error);
      continue;
    }
    layer = mergeInput(layer, parsed);
  }
  if (errors.length > 0) throw configErrorOfAll(errors);
  return layer;
}

/** `value` under the dotted path's keys: `['store', 'url']` → `{ store: { url: value } }`. */
function nestedAt(keys: readonly string[], value: unknown): Record<string, unknown> {
  const [first, ...rest] = keys;
  if (first === undefined) throw new Error('A configuration path has at least one key');
  return { [first]: rest.length === 0 ? value : nestedAt(rest, value) };
}

/** Merges two partial layers: later keys win, sections (`auth`, `store`, …) merge one level deep. */
function mergeInput(a: ExecutorConfigInput, b: ExecutorConfigInput): ExecutorConfigInput {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] = typeof v === 'object' && v !== null && !Array.isArray(v) && typeof prev === 'object' && prev !== null ? { ...prev, ...v } : v;
  }
  return out as ExecutorConfigInput;
}
