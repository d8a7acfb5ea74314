const PLACEHOLDER = /^\$([A-Za-z_][A-Za-z0-9_-]*)((?:\.[A-Za-z0-9_-]+)*)$/;

/**
 * Substitutes `"$name.path"` strings with values saved by earlier steps (`as`), e.g.
 * `"$t1.id"`, `"$s1.lastSeq"`, `"$list1.tasks.0.id"`, or `"$webhook.url"`. Only whole
 * strings are placeholders, so a value keeps its type (a seq stays a number). An unknown
 * name or path throws: the step fails instead of sending a literal `$…` to the server.
 */
export function resolvePlaceholders(value: unknown, vars: ReadonlyMap<string, unknown>): unknown {
  if (typeof value === 'string') {
    const m = PLACEHOLDER.exec(value);
    const [, name, path = ''] = m ?? [];
    if (name === undefined) return value;
    if (!vars.has(name)) throw new Error(`unresolved placeholder ${value}: nothing was saved as ${name}`);
    let current: unknown = vars.get(name);
    for (const segment of path.split('.').slice(1)) {
      if (typeof current !== 'object' || current === null || !(segment in current)) throw new Error(`unresolved placeholder ${value}: no ${segment}`);
      current = (current as Record<string, unknown>)[segment];
    }
    return current;
  }
  if (Array.isArray(value)) return value.map((v) => resolvePlaceholders(v, vars));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolvePlaceholders(v, vars);
    return out;
  }
  return value;
}
