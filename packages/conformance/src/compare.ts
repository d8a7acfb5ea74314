import type { Json } from './normalize.js';

/** Marker in an expectation: the member must be absent. */
export const ABSENT = '$absent';
/** Marker in an expectation: the member must be present, with any value. */
export const ANY = '$any';

/**
 * Checks `actual` against a partial expectation and returns one line per difference
 * (empty = match). Objects match when every expected member matches (extra actual members
 * are fine); arrays must have the same length and match element by element; scalars must
 * be equal. `"$absent"` requires a member to be missing, `"$any"` only requires presence.
 */
export function matchExpected(expected: Json, actual: Json | undefined, path = '$'): string[] {
  if (expected === ABSENT) return actual === undefined ? [] : [`${path}: expected absent, got ${show(actual)}`];
  if (expected === ANY) return actual === undefined ? [`${path}: expected present, got absent`] : [];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected an array, got ${show(actual)}`];
    const out: string[] = [];
    if (expected.length !== actual.length) out.push(`${path}: expected ${expected.length} items, got ${actual.length}: ${show(actual)}`);
    for (const [i, item] of expected.slice(0, actual.length).entries()) out.push(...matchExpected(item, actual[i], `${path}[${i}]`));
    return out;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${path}: expected an object, got ${show(actual)}`];
    const out: string[] = [];
    for (const [key, item] of Object.entries(expected)) out.push(...matchExpected(item, actual[key], `${path}.${key}`));
    return out;
  }
  return expected === actual ? [] : [`${path}: expected ${show(expected)}, got ${show(actual)}`];
}

/**
 * Exact structural comparison (member order ignored) returning one line per difference:
 * the cross-binding identity check, where nothing is allowed to differ.
 */
export function diffJson(a: Json | undefined, b: Json | undefined, path = '$'): string[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    const out: string[] = [];
    if (a.length !== b.length) out.push(`${path}: ${a.length} items vs ${b.length} items`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) out.push(...diffJson(a[i], b[i], `${path}[${i}]`));
    return out;
  }
  const isObj = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    const out: string[] = [];
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) out.push(...diffJson(a[key], b[key], `${path}.${key}`));
    return out;
  }
  return a === b ? [] : [`${path}: ${show(a)} vs ${show(b)}`];
}

function show(value: Json | undefined): string {
  if (value === undefined) return 'absent';
  const text = JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** The part of a scenario run the identity check reads (see `ScenarioRun`). */
export interface ComparableRun {
  readonly scenario: string;
  readonly binding: string;
  readonly outcomes: readonly { readonly step: string }[];
}

/**
 * The cross-binding identity check: for every scenario, every binding's normalized outcomes
 * must equal those of the first binding listed (the reference, normally in-process), step
 * by step. Returns one line per difference, naming scenario, bindings, step and JSON path.
 */
export function crossBindingDiffs(runs: readonly ComparableRun[]): string[] {
  const byScenario = new Map<string, ComparableRun[]>();
  for (const run of runs) byScenario.set(run.scenario, [...(byScenario.get(run.scenario) ?? []), run]);
  const out: string[] = [];
  for (const [scenario, group] of byScenario) {
    const [reference, ...others] = group;
    if (!reference) continue;
    for (const other of others) {
      const steps = Math.max(reference.outcomes.length, other.outcomes.length);
      for (let i = 0; i < steps; i++) {
        const a = reference.outcomes[i] as unknown as Json | undefined;
        const b = other.outcomes[i] as unknown as Json | undefined;
        for (const d of diffJson(a, b, `step ${i}`)) out.push(`${scenario}: ${reference.binding} vs ${other.binding}: ${d}`);
      }
    }
  }
  return out;
}
