import { isPlainObject, jsonTypeOf } from './json-type.js';
import { checkEnum, checkMapKey, checkScalar } from './proto-scalars.js';
import { fieldByKey, messageFields, resolveMessageType } from './schema-lookup.js';
import type { FieldSchema, ValueTypeSchema } from './schema.js';
import { clipInput } from './quote-input.js';
import { type FieldViolation, joinPath, TOO_MANY, ValidationContext } from './validation-context.js';
import { validateWellKnown, WELL_KNOWN } from './well-known-types.js';

export type { FieldViolation } from './validation-context.js';
export { jsonTypeOf } from './json-type.js';
export { isRfc3339Timestamp } from './rfc3339.js';
export { fieldByKey, resolveMessageType } from './schema-lookup.js';

/** Tuning knobs of {@link validateProtoJson}; the defaults suit request bodies. */
export interface ValidateOptions {
  /**
   * Maximum nesting of messages and Struct / ListValue values (default 100, the limit the
   * Python SDK's ProtoJSON parser and ts-proto's binary decoder use). Deeper input is reported
   * instead of risking a stack overflow.
   */
  maxDepth?: number;
  /** Stop after this many violations (default 100); a last entry says more were omitted. */
  maxViolations?: number;
  /**
   * Skip members no field of the message has, at any depth, instead of reporting them
   * (default false: strict). Why: a receiver SHOULD ignore unknown fields (A2A ProtoJSON
   * rules, spec §6.1), so a peer on a newer minor version that adds a field keeps working.
   * Everything else (wrong types, bad enum names, a field set twice) is still a violation;
   * members of Struct and Value fields are free-form JSON and are never "unknown".
   */
  ignoreUnknownFields?: boolean;
}

/**
 * Strict ProtoJSON validation of `json` against message `typeName` (full or short name).
 *
 * Why: ts-proto's `fromJSON` silently coerces wrong types (`String(42)`, `Number("x")`) and
 * ignores unknown keys, while A2A peers (a2a-python) parse strictly and our endpoints must
 * answer bad input with InvalidParams / 400 and field paths. The rules are ProtoJSON's:
 * - a message is a JSON object; keys are the lowerCamelCase JSON name or the original
 *   snake_case name (not both); unknown keys are violations (unless
 *   {@link ValidateOptions.ignoreUnknownFields});
 * - `null` means "default" for any field (for a `google.protobuf.Value` field it is a null value);
 * - at most one member of a oneof;
 * - string ⇒ JSON string; bool ⇒ JSON boolean; 32-bit integers ⇒ integral number in range, or
 *   a string holding one; 64-bit integers likewise (strings may exceed 2^53); float/double ⇒
 *   number or numeric string or "NaN" / "Infinity" / "-Infinity";
 * - enums ⇒ a known value name, or the number of a known value (ts-proto cannot represent
 *   unknown numbers: it would turn them into UNRECOGNIZED = -1);
 * - bytes ⇒ base64 string (standard or URL-safe alphabet, padding optional);
 * - Timestamp ⇒ RFC 3339 string (`Z` or offset, up to 9 fractional digits, years 1–9999);
 * - Struct ⇒ JSON object, ListValue ⇒ JSON array, Value ⇒ any JSON value, Empty ⇒ `{}`;
 * - repeated ⇒ JSON array (no null elements); map ⇒ JSON object with valid keys.
 *
 * REQUIRED fields are deliberately not checked here: presence rules are semantic and belong to
 * the core. Returns an empty array when `json` is valid.
 */
export function validateProtoJson(typeName: string, json: unknown, options: ValidateOptions = {}): FieldViolation[] {
  const ctx = new ValidationContext(options.maxDepth ?? 100, options.maxViolations ?? 100, options.ignoreUnknownFields ?? false);
  try {
    validateMessage(ctx, resolveMessageType(typeName), json, '', 1);
  } catch (e) {
    if (e !== TOO_MANY) throw e;
  }
  return ctx.violations;
}

/** A message: a JSON object of known fields (JSON or proto names), each at most once, one member per oneof. */
function validateMessage(ctx: ValidationContext, typeName: string, value: unknown, path: string, depth: number): void {
  if (depth > ctx.maxDepth) {
    ctx.add(path, `nesting exceeds the maximum depth of ${ctx.maxDepth}`);
    return;
  }
  if (WELL_KNOWN.has(typeName)) {
    validateWellKnown(ctx, typeName, value, path, depth);
    return;
  }
  if (!isPlainObject(value)) {
    ctx.add(path, `expected a JSON object (${typeName}), got ${jsonTypeOf(value)}`);
    return;
  }
  const fields = messageFields(typeName);
  // Made when first needed (most messages need neither; this runs for every message of every
  // request): a field is set twice only under both its names, which differ for some fields
  // only (JSON.parse keeps one member per key); and most messages set one oneof at most.
  let seen: Map<FieldSchema, string> | undefined;
  let firstOneof: string | undefined;
  let firstOneofKey: string | undefined;
  let oneofs: Map<string, string> | undefined;
  for (const key of Object.keys(value)) {
    const keyPath = joinPath(path, key);
    const field = fieldByKey(typeName, key);
    if (!field) {
      if (!ctx.ignoreUnknownFields) ctx.add(keyPath, `unknown field (not part of ${typeName})`);
      continue;
    }
    if (field.json !== field.name) {
      const earlier = seen?.get(field);
      if (earlier !== undefined) {
        ctx.add(keyPath, `field "${field.json}" is set twice (as "${earlier}" and "${key}")`);
        continue;
      }
      seen ??= new Map();
      seen.set(field, key);
    }
    const fieldValue = value[key];
    const isValue = field.kind === 'message' && field.type === 'google.protobuf.Value';
    if (fieldValue === null && !isValue) continue; // null = default value
    const oneof = field.oneof;
    if (oneof !== undefined) {
      const other = oneof === firstOneof ? firstOneofKey : oneofs?.get(oneof);
      if (other !== undefined) {
        const members = fields.filter((f) => f.oneof === oneof).map((f) => f.json);
        ctx.add(keyPath, `only one of ${members.join(', ')} may be set (oneof "${oneof}"), but "${other}" is set too`);
        continue;
      }
      if (firstOneof === undefined) {
        firstOneof = oneof;
        firstOneofKey = key;
      } else {
        oneofs ??= new Map();
        oneofs.set(oneof, key);
      }
    }
    validateField(ctx, field, fieldValue, keyPath, depth);
  }
}

/** One field's value: a map (JSON object), a repeated field (JSON array), or a single value. */
function validateField(ctx: ValidationContext, field: FieldSchema, value: unknown, path: string, depth: number): void {
  if (field.kind === 'map') {
    if (!isPlainObject(value)) {
      ctx.add(path, `expected a JSON object (map), got ${jsonTypeOf(value)}`);
      return;
    }
    for (const [k, v] of Object.entries(value)) {
      const entryPath = `${path}[${JSON.stringify(clipInput(k))}]`;
      const keyProblem = checkMapKey(field.key, k);
      if (keyProblem) ctx.add(entryPath, keyProblem);
      validateSingle(ctx, field.value, v, entryPath, depth, false);
    }
    return;
  }
  if (field.repeated) {
    if (!Array.isArray(value)) {
      ctx.add(path, `expected a JSON array, got ${jsonTypeOf(value)}`);
      return;
    }
    for (const [i, item] of value.entries()) validateSingle(ctx, field, item, `${path}[${i}]`, depth, false);
    return;
  }
  validateSingle(ctx, field, value, path, depth, true);
}

/** Validates one value of a (non-map, non-repeated view of a) field. */
function validateSingle(ctx: ValidationContext, type: ValueTypeSchema, value: unknown, path: string, depth: number, nullAllowed: boolean): void {
  if (type.kind === 'message') {
    if (value === null && type.type !== 'google.protobuf.Value') {
      if (!nullAllowed) ctx.add(path, `null is not allowed here (expected ${type.type})`);
      return;
    }
    validateMessage(ctx, type.type, value, path, depth + 1);
    return;
  }
  if (value === null) {
    if (!nullAllowed) ctx.add(path, 'null is not allowed here');
    return;
  }
  if (type.kind === 'enum') {
    const problem = checkEnum(type.type, value);
    if (problem) ctx.add(path, problem);
    return;
  }
  const problem = checkScalar(type.kind, value);
  if (problem) ctx.add(path, problem);
}
