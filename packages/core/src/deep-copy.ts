/**
 * A deep copy of protocol data (tasks, messages, stored records) with the result of
 * `structuredClone`, several times faster on the small plain objects the core copies on every
 * task event (store saves and reads, task views). `structuredClone` goes through the V8
 * serializer even for a handful of strings; plain objects and arrays are walked directly here.
 *
 * Same result as `structuredClone` for what protocol data holds: plain objects (own enumerable
 * keys, `undefined` values kept, prototype reset to `Object.prototype`), arrays, primitives,
 * and typed byte arrays (a `Buffer` comes back as a plain `Uint8Array`, as with
 * `structuredClone`). Anything else (Date, Map, class instances, cycles past a depth bound,
 * functions) is handed to `structuredClone` itself, so it keeps that function's semantics and
 * errors.
 * @internal
 */
export function deepCopy<T>(value: T): T {
  return copy(value, 0) as T;
}

/** Deeper than this, a subtree goes to `structuredClone` (which handles cycles). */
const MAX_DEPTH = 64;

function copy(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'function' || typeof value === 'symbol') return structuredClone(value);
    return value;
  }
  if (depth > MAX_DEPTH) return structuredClone(value);
  if (Array.isArray(value)) {
    // structuredClone keeps holes and extra props; protocol arrays are dense and plain.
    if (Object.getPrototypeOf(value) !== Array.prototype) return structuredClone(value);
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return structuredClone(value);
      out[i] = copy(value[i], depth + 1);
    }
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = copy((value as Record<string, unknown>)[key], depth + 1);
      // An own `__proto__` key (JSON.parse makes those) stays a key, as with structuredClone.
      if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
      else out[key] = item;
    }
    return out;
  }
  if (value instanceof Uint8Array) return new Uint8Array(value);
  return structuredClone(value);
}
