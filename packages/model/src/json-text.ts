/**
 * Building blocks of the direct ProtoJSON encoders (`direct-json.ts`): JSON text of one member,
 * byte-identical to what `JSON.stringify` writes for the same value inside an object.
 */

/** Characters `JSON.stringify` escapes (or, for lone surrogates, may escape) in a string. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are exactly what JSON must escape
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * `,"key":value` for a member whose value is a string in the common case: a string with nothing
 * to escape is quoted as it is (about half the cost of `JSON.stringify` on an id-sized string);
 * anything else goes through `JSON.stringify`, and a value it drops (`undefined`, a function)
 * drops the member, as it would inside an object. `prefix` is `,"key":`.
 */
export function stringMember(prefix: string, value: unknown): string {
  if (typeof value === 'string' && !NEEDS_ESCAPE.test(value)) return `${prefix}"${value}"`;
  return anyMember(prefix, value);
}

/** `,"key":value` for any JSON value (Struct, Value, string list, bool), or '' when `JSON.stringify` drops it. */
export function anyMember(prefix: string, value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? '' : prefix + text;
}

/** `{…}` from members each written as `,"key":value`: the leading comma goes; no member gives `{}`. */
export function objectOf(members: string): string {
  return members === '' ? '{}' : `{${members.slice(1)}}`;
}

/** ProtoJSON of `bytes`: base64, as the generated `toJSON` writes it (Buffer in Node, `btoa` elsewhere). */
export function base64Of(bytes: Uint8Array): string {
  const buffer = (globalThis as { Buffer?: { from(bytes: Uint8Array): { toString(encoding: 'base64'): string } } }).Buffer;
  if (buffer) return buffer.from(bytes).toString('base64');
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return globalThis.btoa(binary);
}
