import { isPlainObject, jsonTypeOf } from './json-type.js';
import { quoteInput } from './quote-input.js';
import { isRfc3339Timestamp } from './rfc3339.js';
import { joinPath, type ValidationContext } from './validation-context.js';

/** The well-known types A2A messages use, validated by their special ProtoJSON forms. */
export const WELL_KNOWN = new Set([
  'google.protobuf.Struct',
  'google.protobuf.Value',
  'google.protobuf.ListValue',
  'google.protobuf.Timestamp',
  'google.protobuf.Empty',
]);

/** Checks the ProtoJSON form of a well-known type (RFC 3339 Timestamp, free-form Struct / Value, `{}` Empty). */
export function validateWellKnown(ctx: ValidationContext, typeName: string, value: unknown, path: string, depth: number): void {
  switch (typeName) {
    case 'google.protobuf.Timestamp':
      if (typeof value !== 'string') {
        ctx.add(path, `expected an RFC 3339 timestamp string, got ${jsonTypeOf(value)}`);
      } else if (!isRfc3339Timestamp(value)) {
        ctx.add(path, `expected an RFC 3339 timestamp (e.g. 2026-01-02T03:04:05.678Z), got ${quoteInput(value)}`);
      }
      return;
    case 'google.protobuf.Struct':
      if (!isPlainObject(value)) {
        ctx.add(path, `expected a JSON object (google.protobuf.Struct), got ${jsonTypeOf(value)}`);
        return;
      }
      checkJsonValue(ctx, value, path, depth);
      return;
    case 'google.protobuf.ListValue':
      if (!Array.isArray(value)) {
        ctx.add(path, `expected a JSON array (google.protobuf.ListValue), got ${jsonTypeOf(value)}`);
        return;
      }
      checkJsonValue(ctx, value, path, depth);
      return;
    case 'google.protobuf.Value':
      checkJsonValue(ctx, value, path, depth);
      return;
    case 'google.protobuf.Empty':
      if (!isPlainObject(value)) {
        ctx.add(path, `expected a JSON object (google.protobuf.Empty), got ${jsonTypeOf(value)}`);
        return;
      }
      if (!ctx.ignoreUnknownFields) for (const key of Object.keys(value)) ctx.add(joinPath(path, key), 'unknown field (not part of google.protobuf.Empty)');
      return;
  }
}

/** Checks that a Struct / Value payload is real JSON (as it always is after JSON.parse) within the depth limit. */
function checkJsonValue(ctx: ValidationContext, value: unknown, path: string, depth: number): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) ctx.add(path, 'JSON numbers must be finite');
    return;
  }
  if (typeof value === 'object') {
    if (depth + 1 > ctx.maxDepth) {
      ctx.add(path, `nesting exceeds the maximum depth of ${ctx.maxDepth}`);
      return;
    }
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) checkJsonValue(ctx, item, `${path}[${i}]`, depth + 1);
    } else {
      for (const [k, v] of Object.entries(value)) checkJsonValue(ctx, v, joinPath(path, k), depth + 1);
    }
    return;
  }
  ctx.add(path, `not a JSON value (${typeof value})`);
}
