import { jsonTypeOf } from './json-type.js';

/** Most characters of one piece of client input an error message quotes. */
export const MAX_QUOTED_CHARS = 64;

/**
 * A piece of client input (a task id, an enum name, a member name) as an error message or a
 * field path shows it: whole when short, else its first {@link MAX_QUOTED_CHARS} characters
 * and its length. Why: errors quote what was wrong, often twice (the message and the field
 * violation or `ErrorInfo` metadata), so a 3 MB role or task id made a 6 MB error body; a
 * prefix names the culprit as well.
 */
export function clipInput(text: string): string {
  if (text.length <= MAX_QUOTED_CHARS) return text;
  // Not between the two halves of a surrogate pair.
  const end = isHighSurrogate(text.charCodeAt(MAX_QUOTED_CHARS - 1)) ? MAX_QUOTED_CHARS - 1 : MAX_QUOTED_CHARS;
  return `${text.slice(0, end)}… (${text.length} characters)`;
}

/**
 * Any client value as an error message quotes it: a string in quotes ({@link clipInput}), a
 * number, boolean or null as written, an object or array by its JSON type only. Never
 * serialised: a value may be nested thousands of levels deep (`JSON.stringify` of a part
 * `kind` nested 10,000 deep overflowed the stack) or be megabytes long.
 */
export function quoteInput(value: unknown): string {
  if (typeof value === 'string') return `"${clipInput(value)}"`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  const type = jsonTypeOf(value);
  return type === 'object' || type === 'array' ? `an ${type}` : type;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
