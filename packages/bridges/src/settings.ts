/**
 * Bridge settings: a tiny schema per bridge, and one resolution rule for all of them.
 *
 * Each value is resolved on its own, first defined wins:
 * 1. the agent's own `settings` (per-agent metadata in the service config),
 * 2. the service-wide settings of that handler (`handlers.<name>` in the service config),
 * 3. environment variables named by the field (e.g. `OPENAI_API_KEY`),
 * 4. the field's default.
 * So handler selection and per-agent choices live in configuration and the environment only
 * fills gaps, as in deployments where keys come from a secret store.
 */

/** A settings problem. One line naming the key and the layer it came from; secrets never shown. */
export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingsError';
  }
}

/** How one setting is read and checked. Build these with {@link field}. */
export interface FieldSpec<T> {
  /** One line for docs and error messages. */
  readonly description: string;
  /** Environment variables consulted (first set, non-empty one wins) when no layer sets the value. */
  readonly env?: readonly string[];
  /** Used when nothing sets the value. Absent and not `optional` ⇒ the setting is required. */
  readonly default?: T;
  /** May stay unset (undefined). */
  readonly optional?: boolean;
  /** Never echoed in errors; removed from logs and task messages by the bridge's redactor. */
  readonly secret?: boolean;
  /**
   * Other names this setting is accepted under in the agent and service layers, e.g. the
   * reference daemon's `hermes_api_url` for `baseUrl`, so its registry rows work unchanged.
   * Same precedence as the key itself; setting both in one layer is an error.
   */
  readonly aliases?: readonly string[];
  /** Checks a value from a config layer (JSON). Throws a message fragment: `must be …`. */
  parse(value: unknown): T;
  /** Turns an environment variable's text into a value for {@link parse}. */
  fromText(text: string): unknown;
}

/** The schema of a settings object: one field spec per key. */
export type SettingsSchema<S> = { readonly [K in keyof S]-?: FieldSpec<S[K]> };

class Invalid extends Error {}
const must = (what: string): never => {
  throw new Invalid(`must be ${what}`);
};

type Options<T> = Pick<FieldSpec<T>, 'description' | 'env' | 'default' | 'optional' | 'secret' | 'aliases'>;

/** Field builders for the value kinds bridges need. */
export const field = {
  string<T extends string | undefined = string>(o: Options<T>): FieldSpec<T> {
    return { ...o, parse: (v) => (typeof v === 'string' && v.trim() !== '' ? (v as T) : must('a non-empty string')), fromText: (t) => t };
  },
  /** An absolute http(s) URL, stored without trailing slashes. */
  url<T extends string | undefined = string>(o: Options<T>): FieldSpec<T> {
    return {
      ...o,
      parse: (v) => {
        if (typeof v !== 'string') return must('an absolute http(s) URL');
        let u: URL;
        try {
          u = new URL(v);
        } catch {
          return must('an absolute http(s) URL');
        }
        if (u.protocol !== 'http:' && u.protocol !== 'https:') return must('an absolute http(s) URL');
        return v.replace(/\/+$/, '') as T;
      },
      fromText: (t) => t,
    };
  },
  int<T extends number | undefined = number>(min: number, max: number, o: Options<T>): FieldSpec<T> {
    return {
      ...o,
      parse: (v) => (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? (v as T) : must(`an integer between ${min} and ${max}`)),
      fromText: (t) => (/^\s*-?\d+\s*$/.test(t) ? Number(t) : t),
    };
  },
  bool<T extends boolean | undefined = boolean>(o: Options<T>): FieldSpec<T> {
    return {
      ...o,
      parse: (v) => (typeof v === 'boolean' ? (v as T) : must('true or false')),
      fromText: (t) => {
        const s = t.trim().toLowerCase();
        return ['true', '1', 'yes', 'on'].includes(s) ? true : ['false', '0', 'no', 'off'].includes(s) ? false : t;
      },
    };
  },
  oneOf<const V extends string>(values: readonly V[], o: Options<V>): FieldSpec<V> {
    return { ...o, parse: (v) => (values.includes(v as V) ? (v as V) : must(`one of ${values.join(', ')}`)), fromText: (t) => t.trim() };
  },
  /** A map of header names to values (values count as secrets when `secret`). */
  headers(o: Options<Readonly<Record<string, string>>>): FieldSpec<Readonly<Record<string, string>>> {
    return {
      ...o,
      parse: (v) => {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) return must('an object of header names to string values');
        for (const [k, val] of Object.entries(v)) {
          if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k) || typeof val !== 'string' || /[\r\n\0]/.test(val))
            return must('an object of header names to string values');
        }
        return { ...(v as Record<string, string>) };
      },
      fromText: (t) => {
        try {
          return JSON.parse(t);
        } catch {
          return t;
        }
      },
    };
  },
  /** Any JSON object (extra request parameters passed through to the upstream). */
  object(o: Options<Readonly<Record<string, unknown>>>): FieldSpec<Readonly<Record<string, unknown>>> {
    return {
      ...o,
      parse: (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...(v as Record<string, unknown>) } : must('a JSON object')),
      fromText: (t) => {
        try {
          return JSON.parse(t);
        } catch {
          return t;
        }
      },
    };
  },
};

/** Where settings come from, highest precedence first (see the module comment). */
export interface SettingsLayers {
  /** The agent's own settings (per-agent metadata). */
  readonly agent?: Readonly<Record<string, unknown>>;
  /** Service-wide settings of this handler. */
  readonly service?: Readonly<Record<string, unknown>>;
  /** Environment variables. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** How layers are named in error messages, e.g. `agents[0].settings` and `handlers.openai-chat`. */
export interface LayerNames {
  readonly agent: string;
  readonly service: string;
}

/** Resolves and checks every field; throws {@link SettingsError} on the first problem. */
export function resolveSettings<S>(
  schema: SettingsSchema<S>,
  layers: SettingsLayers,
  names: LayerNames = { agent: 'settings', service: 'service settings' },
): S {
  const keys = Object.keys(schema) as Array<keyof S & string>;
  const accepted = [...keys, ...keys.flatMap((key) => (schema[key] as FieldSpec<unknown>).aliases ?? [])];
  checkKeys(layers.agent, accepted, names.agent);
  checkKeys(layers.service, accepted, names.service);
  const out = {} as Record<string, unknown>;
  for (const key of keys) {
    const spec = schema[key] as FieldSpec<unknown>;
    out[key] = resolveOne(key, spec, layers, names);
  }
  return out as S;
}

function checkKeys(layer: Readonly<Record<string, unknown>> | undefined, keys: readonly string[], where: string): void {
  for (const key of Object.keys(layer ?? {})) {
    if (!keys.includes(key)) throw new SettingsError(`Invalid settings: unknown key ${where}.${key} (known: ${keys.join(', ')})`);
  }
}

function resolveOne(key: string, spec: FieldSpec<unknown>, layers: SettingsLayers, names: LayerNames): unknown {
  const check = (value: unknown, where: string) => {
    try {
      return spec.parse(value);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      const got = spec.secret ? 'the value is not shown: it is a secret' : `got ${JSON.stringify(value) ?? String(value)}`;
      throw new SettingsError(`Invalid settings: ${where} ${error.message} (${got})`);
    }
  };
  for (const [layer, name] of [
    [layers.agent, names.agent],
    [layers.service, names.service],
  ] as const) {
    if (!layer) continue;
    const set = [key, ...(spec.aliases ?? [])].filter((k) => layer[k] !== undefined);
    if (set.length > 1) throw new SettingsError(`Invalid settings: ${name} sets ${set.join(' and ')}, which are one setting (${key}); keep one`);
    const [only] = set;
    if (only !== undefined) return check(layer[only], `${name}.${only}`);
  }
  for (const name of spec.env ?? []) {
    const text = layers.env?.[name];
    if (text !== undefined && text !== '') return check(spec.fromText(text), `environment variable ${name}`);
  }
  if (spec.default !== undefined || spec.optional) return spec.default;
  const env = spec.env?.length ? ` or the environment variable ${spec.env.join(' / ')}` : '';
  throw new SettingsError(
    `Invalid settings: ${names.agent}.${key} is required (${spec.description}); set it in the agent's settings, the handler's service settings${env}`,
  );
}

/** Every secret value in resolved settings (header maps contribute their values). */
export function secretValues<S>(schema: SettingsSchema<S>, settings: S): string[] {
  const out: string[] = [];
  for (const key of Object.keys(schema) as Array<keyof S>) {
    if (!(schema[key] as FieldSpec<unknown>).secret) continue;
    const value = settings[key] as unknown;
    if (typeof value === 'string') out.push(value);
    else if (value && typeof value === 'object') for (const v of Object.values(value)) if (typeof v === 'string') out.push(v);
  }
  return out;
}
