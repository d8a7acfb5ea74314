/**
 * Which card keys of a configured agent (`agent`, an entry of `agents`, a registry row) some
 * layer set, as opposed to the built-in defaults filling them. Why: an agent module may bring
 * its own card, and it must win over the defaults (which describe the demo agent) yet lose to
 * what the operator wrote. A resolved configuration holds no trace of where a value came
 * from, so the keys ride beside it, in a WeakMap keyed by the card object (no config key, no
 * change to the shape callers see).
 *
 * Keys are top-level card keys (`name`, `skills`, ...) and `capabilities.<flag>`. A card object
 * this module never saw counts as set in full: its author spelled out every field.
 */
import type { AgentCardConfig } from './types.js';

const setKeys = new WeakMap<object, ReadonlySet<string>>();

/** The keys a card layer defines (undefined values do not count). */
export function cardKeysOf(layer: object | undefined): Set<string> {
  const keys = new Set<string>();
  for (const [key, value] of Object.entries(layer ?? {})) {
    if (value === undefined) continue;
    if (key === 'capabilities' && typeof value === 'object' && value !== null) {
      for (const [flag, on] of Object.entries(value)) if (on !== undefined) keys.add(`capabilities.${flag}`);
    } else keys.add(key);
  }
  return keys;
}

/** Records that `keys` of `card` were set by a layer; returns `card`. */
export function markCardKeys<T extends object>(card: T, keys: Iterable<string>): T {
  setKeys.set(card, new Set(keys));
  return card;
}

/** The keys of `card` a layer set; every key when `card` was never marked. */
export function setCardKeys(card: AgentCardConfig): ReadonlySet<string> {
  return setKeys.get(card) ?? cardKeysOf(card);
}

/** Whether `card` was marked (its set keys are known rather than assumed). */
export function hasCardKeys(card: object): boolean {
  return setKeys.has(card);
}
