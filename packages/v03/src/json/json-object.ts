import { errors } from '@a2a-polyglot/core';

/** A parsed JSON object (not an array, not null). */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object: what every v0.3 structure must be. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A v0.3-specific structural problem as InvalidParams, named by the field path the v0.3 client
 * sent (`message.parts[0].kind`), so the client can find it in its own request.
 */
export function v03Violation(field: string, description: string): Error {
  return errors.invalidParams(`Invalid parameters: ${field} ${description}`, [{ field, description }]);
}

/**
 * Copies `source` without `omit` and without undefined values, then adds `extra`. Unknown
 * members pass through on purpose: the strict v1.0 decoder then rejects them with their path,
 * so there is one validator, not two.
 */
export function withoutKeys(source: JsonObject, omit: readonly string[], extra: JsonObject = {}): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(source)) if (!omit.includes(key) && value !== undefined) out[key] = value;
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) out[key] = value;
  return out;
}

/** Maps an array member element by element; a non-array is left for the v1.0 decoder to reject. */
export function mapArray(value: unknown, path: string, map: (item: unknown, path: string) => unknown): unknown {
  return Array.isArray(value) ? value.map((item, i) => map(item, `${path}[${i}]`)) : value;
}
