/**
 * Building blocks of the direct ProtoJSON encoders (`direct-json.ts`): JSON text of one member,
 * byte-identical to what `JSON.stringify` writes for the same value inside an object.
 */

/** Characters `JSON.stringify` escapes (or, for lone surrogates, may escape) in a string. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are exactly what JSON must escape
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * JSON text of a value that is a string in the common case: a string with nothing to escape is
 * quoted as it is (about half the cost of `JSON.stringify` on an id-sized string); anything
 * else goes through `JSON.stringify`. Undefined when `JSON.stringify` drops the value inside
 * an object (`undefined`, a function).
 */
export function stringText(value: unknown): string | undefined {
  if (typeof value === 'string' && !NEEDS_ESCAPE.test(value)) return `"${value}"`;
  return JSON.stringify(value);
}

/** JSON text of any value (Struct, Value, string list, bool); undefined when `JSON.stringify` drops it inside an object. */
export function anyText(value: unknown): string | undefined {
  return JSON.stringify(value);
}

/**
 * Adds the member `key` (written `"key":`) to an object's text under construction: `out` is ''
 * until the first member, then `{…` without its closing brace. A value `JSON.stringify` would
 * drop (undefined text) adds nothing. Why not members with a leading comma cut at the end: a
 * cut copies (flattens) the whole text once per nesting level.
 */
export function withMember(out: string, key: string, text: string | undefined): string {
  if (text === undefined) return out;
  return out === '' ? `{${key}${text}` : `${out},${key}${text}`;
}

/** Closes an object's text built with {@link withMember}: no member gives `{}`. */
export function closeObject(out: string): string {
  return out === '' ? '{}' : `${out}}`;
}

/** ProtoJSON of `bytes`: base64, as the generated `toJSON` writes it (Buffer in Node, `btoa` elsewhere). */
export function base64Of(bytes: Uint8Array): string {
  const buffer = (globalThis as { Buffer?: { from(bytes: Uint8Array): { toString(encoding: 'base64'): string } } }).Buffer;
  if (buffer) return buffer.from(bytes).toString('base64');
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return globalThis.btoa(binary);
}
