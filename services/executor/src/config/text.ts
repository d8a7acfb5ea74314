/**
 * Layers written as text (environment variables and CLI flags): each value is converted from
 * text (`"8080"` to 8080, `"true"` to true) and then checked against the config schema like a
 * config file value, with errors naming the variable or flag the operator typed.
 */
import { ConfigError, configErrorOfAll, invalidValue as fail } from './errors.js';
import { parseConfigInput } from './parse.js';
import { configFileSchema } from './schema/config-file.js';
import { mergeBySchema, settingLeaves, textKindOf, type TextKind } from './schema/setting.js';
import { PORT_OR_OFF } from './schema/values.js';
import type { ConfigLayer } from './types.js';

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
    case 'hopsOrList':
      // "2" is a hop count; anything else a comma-separated list of addresses and ranges.
      return /^\s*\d+\s*$/.test(text) ? Number(text) : fromText(text, 'list', where);
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

/** How the text of each key converts, by dotted path (from the schema: see {@link textKindOf}). */
const KIND: Readonly<Record<string, TextKind>> = Object.fromEntries(settingLeaves(configFileSchema).map((leaf) => [leaf.path, textKindOf(leaf)]));

/**
 * Builds one layer from `[dotted key, text, variable-or-flag name]` entries. Each entry is
 * checked on its own so an error names the variable or flag the operator actually typed; the
 * error lists every bad entry.
 */
export function layerFromText(entries: ReadonlyArray<readonly [path: string, text: string, where: string]>, baseDir: string): ConfigLayer {
  let layer: ConfigLayer = {};
  const errors: ConfigError[] = [];
  for (const [path, text, where] of entries) {
    let parsed: ConfigLayer;
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

/** Merges two partial layers as the schema shapes them: later keys win, sections merge. */
function mergeInput(a: ConfigLayer, b: ConfigLayer): ConfigLayer {
  return mergeBySchema(configFileSchema, a, b) as ConfigLayer;
}
