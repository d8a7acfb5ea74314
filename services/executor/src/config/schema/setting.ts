/**
 * What makes the zod schema THE one owner of every config key: besides its value schema, its
 * default (`.default()`, sections `.prefault({})`) and its help text (`.describe()`), a key may
 * carry the environment variable and the flag that set it, registered in {@link settingMeta}.
 * Everything else is derived here from the schema — the defaults, the partial schema a layer
 * is checked with, the environment and flag tables, how their text converts, and how layers
 * merge — so adding a key is one line in its section file.
 *
 * Hand-written walkers over zod's own definitions (`_zod.def`): zod has no public visitor; the
 * node kinds read here (object, optional, default, prefault, record, array, pipe, boolean,
 * number) are the ones the config schema is built from.
 */
import { z } from 'zod';

/** How the text of an environment variable or flag becomes the key's value before it is checked. */
export type TextKind = 'int' | 'portOrOff' | 'bool' | 'string' | 'keys' | 'list' | 'hopsOrList';

/** The names a key is set by besides a config file. */
export interface SettingMeta {
  /** The environment variable that sets the key. */
  readonly env?: string;
  /** The command-line flag that sets the key (`--name`). */
  readonly flag?: string;
  /** How its text converts, where the value schema does not say (a port that may be `off`). */
  readonly text?: TextKind;
}

/** The env/flag names of each key: `schema.register(settingMeta, { env: 'PORT', flag: '--port' })`. */
export const settingMeta = z.registry<SettingMeta>();

type Def = { readonly type: string; readonly innerType?: z.ZodType; readonly shape?: Record<string, z.ZodType>; readonly in?: z.ZodType };

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** The schema under its optional / default / prefault wrappers. */
export function unwrapped(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  return (def.type === 'optional' || def.type === 'default' || def.type === 'prefault') && def.innerType ? unwrapped(def.innerType) : schema;
}

/** The shape of a section (an object schema under its wrappers), or undefined for a leaf. */
export function sectionShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const def = defOf(unwrapped(schema));
  return def.type === 'object' ? def.shape : undefined;
}

/**
 * The schema a layer (a config file, one variable, one flag, a `startExecutor` argument) is
 * checked with: the same checks, every key optional and no defaults filled in, so a layer
 * holds exactly what it sets and the layers below show through.
 */
export function withoutDefaults<T extends z.ZodType>(schema: T): z.ZodType {
  const def = defOf(schema);
  if ((def.type === 'default' || def.type === 'prefault' || def.type === 'optional') && def.innerType) return withoutDefaults(def.innerType).optional();
  if (def.type === 'object' && def.shape) {
    const shape = Object.fromEntries(Object.entries(def.shape).map(([key, value]) => [key, withoutDefaults(value)]));
    return z.core.clone(schema as unknown as z.core.$ZodType, { ...(def as object), shape } as never) as unknown as z.ZodType;
  }
  return schema;
}

/** One key of the schema: its dotted path, its schema (wrappers included) and its env/flag names. */
export interface SettingLeaf {
  readonly path: string;
  readonly schema: z.ZodType;
  readonly meta: SettingMeta | undefined;
}

/** Every key of `schema` that is not a section, depth first, in the schema's order. */
export function settingLeaves(schema: z.ZodType, prefix = ''): SettingLeaf[] {
  const shape = sectionShape(schema);
  if (!shape) return [];
  return Object.entries(shape).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return sectionShape(value) ? settingLeaves(value, path) : [{ path, schema: value, meta: settingMeta.get(value) }];
  });
}

/** `{ NAME: 'dotted.path' }` of every key that registers `which` (env or flag). */
export function settingNames(schema: z.ZodType, which: 'env' | 'flag'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const leaf of settingLeaves(schema)) {
    const name = leaf.meta?.[which];
    if (name) out[name] = leaf.path;
  }
  return out;
}

/** How the text of key `leaf` converts: its registered kind, else what its value schema takes. */
export function textKindOf(leaf: SettingLeaf): TextKind {
  if (leaf.meta?.text) return leaf.meta.text;
  switch (defOf(unwrapped(leaf.schema)).type) {
    case 'boolean':
      return 'bool';
    case 'number':
      return 'int';
    case 'array':
      return 'list';
    case 'record':
      return 'keys';
    default:
      return 'string';
  }
}

/**
 * Layers `over` onto `base` as the schema shapes them: sections merge key by key (at any
 * depth), every other value (scalars, lists, maps such as `auth.apiKeys`) replaces; undefined
 * leaves `base` as it is.
 */
export function mergeBySchema(schema: z.ZodType, base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  const shape = sectionShape(schema);
  if (!shape || typeof over !== 'object' || over === null) return over;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown> | undefined) };
  for (const [key, value] of Object.entries(over)) {
    const keySchema = shape[key];
    out[key] = keySchema ? mergeBySchema(keySchema, out[key], value) : value;
  }
  return out;
}

/**
 * `value` with every key of the schema's sections present, unset ones as `undefined`: the
 * resolved configuration names every key it has, set or not (what `--help`, tests and
 * `Object.keys` see), as the schema lists them.
 */
export function withEveryKey(schema: z.ZodType, value: unknown): unknown {
  const shape = sectionShape(schema);
  if (!shape || typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(Object.entries(shape).map(([key, keySchema]) => [key, withEveryKey(keySchema, record[key])]));
}
