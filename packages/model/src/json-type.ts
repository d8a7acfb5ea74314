/**
 * Names the JSON type of a value (`null`, `array`, `object`, `string`, …) the way violation
 * descriptions do, so transports that check non-ProtoJSON input (query strings, envelopes) can
 * word their errors the same way.
 */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** True for a JSON object (not null, not an array): the only shape a message or map can take. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
