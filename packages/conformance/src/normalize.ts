/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP_KEYS = new Set(['timestamp', 'statusTimestampAfter']);
const PAGE_TOKEN_KEYS = new Set(['nextPageToken', 'pageToken']);

/**
 * Rewrites server-generated values into stable placeholders so two runs of a scenario (on
 * two bindings, or twice on one) compare equal: generated ids become `<task1>`, `<ctx2>`,
 * `<msg3>`, ... numbered by first appearance within the run; timestamps become `<ts>`;
 * non-empty page tokens become `<page-token>`. Ids the scenario chose itself (`cfg-1`,
 * `msg-0`, artifact ids) are kept as they are. Object keys are visited in sorted order, so
 * numbering does not depend on how a binding orders keys.
 *
 * One instance per scenario run: the same generated id maps to the same placeholder in
 * every step of that run.
 */
export class Normalizer {
  private readonly ids = new Map<string, string>();
  private readonly counters = new Map<string, number>();

  /**
   * @param literals exact string values to replace wherever they occur (e.g. the run's own
   *   webhook URL, whose port differs per run, → `<webhook-url>`).
   */
  constructor(private readonly literals: Readonly<Record<string, string>> = {}) {}

  /** A normalized deep copy (undefined members dropped, as on any JSON wire). */
  normalize(value: unknown): Json {
    return this.visit(toJson(value), undefined, undefined);
  }

  private visit(value: Json, key: string | undefined, parent: Record<string, Json> | undefined): Json {
    if (Array.isArray(value)) return value.map((v) => this.visit(v, key, parent));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, Json> = {};
      for (const [k, v] of Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[k] = this.visit(v, k, value);
      return out;
    }
    if (typeof value !== 'string') return value;
    const literal = Object.hasOwn(this.literals, value) ? this.literals[value] : undefined;
    if (literal !== undefined) return literal;
    if (key === undefined) return value;
    if (TIMESTAMP_KEYS.has(key)) return '<ts>';
    if (PAGE_TOKEN_KEYS.has(key)) return value === '' ? '' : '<page-token>';
    if (UUID.test(value)) return this.placeholder(value, idKind(key, parent));
    return value;
  }

  private placeholder(id: string, kind: string): string {
    let found = this.ids.get(id);
    if (found === undefined) {
      const n = (this.counters.get(kind) ?? 0) + 1;
      this.counters.set(kind, n);
      found = `<${kind}${n}>`;
      this.ids.set(id, found);
    }
    return found;
  }
}

function idKind(key: string, parent: Record<string, Json> | undefined): string {
  switch (key) {
    case 'taskId':
    case 'referenceTaskIds':
      return 'task';
    case 'contextId':
      return 'ctx';
    case 'messageId':
      return 'msg';
    case 'artifactId':
      return 'artifact';
    case 'id':
      if (parent && 'status' in parent) return 'task';
      if (parent && 'url' in parent) return 'config';
      return 'id';
    default:
      return 'id';
  }
}

/** Deep copy through JSON semantics: `undefined` members vanish, `undefined` alone is `null`. */
export function toJson(value: unknown): Json {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value)) as Json;
}
