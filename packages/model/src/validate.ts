import { PROTO_SCHEMA } from './gen/proto-schema.js';
import type { FieldSchema, ProtoSchema, ScalarKind, ValueTypeSchema } from './schema.js';

/**
 * One problem found in a ProtoJSON document.
 *
 * Same shape as `google.rpc.BadRequest.FieldViolation`, so the transports can put the list
 * straight into an error's details. `field` is a path into the input as the client wrote it
 * (its keys, camelCase or snake_case): `message.parts[0].text`, map entries as
 * `securitySchemes["oauth"]`; the empty string means the document itself.
 */
export interface FieldViolation {
  field: string;
  description: string;
}

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

/** The package of the A2A messages; short type names are looked up in it. */
const A2A_PACKAGE = 'lf.a2a.v1';

const WELL_KNOWN = new Set([
  'google.protobuf.Struct',
  'google.protobuf.Value',
  'google.protobuf.ListValue',
  'google.protobuf.Timestamp',
  'google.protobuf.Empty',
]);

/**
 * Resolves a message type name: a full name (`lf.a2a.v1.Task`), a short A2A name (`Task`) or
 * one of the supported well-known types (`google.protobuf.Empty`, …), so callers can use the
 * short names everywhere. Throws for an unknown name: that is a programming error, not bad input.
 */
export function resolveMessageType(typeName: string, schema: ProtoSchema = PROTO_SCHEMA): string {
  if (schema.messages[typeName] || WELL_KNOWN.has(typeName)) return typeName;
  const qualified = `${A2A_PACKAGE}.${typeName}`;
  if (schema.messages[qualified]) return qualified;
  throw new Error(`Unknown protobuf message type "${typeName}"`);
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
  const ctx = new Context(options.maxDepth ?? 100, options.maxViolations ?? 100, options.ignoreUnknownFields ?? false);
  try {
    validateMessage(ctx, resolveMessageType(typeName), json, '', 1);
  } catch (e) {
    if (e !== TOO_MANY) throw e;
  }
  return ctx.violations;
}

const TOO_MANY = Symbol('too many violations');

const fieldIndexes = new Map<string, Map<string, FieldSchema>>();

/**
 * Finds the field of message `typeName` that a JSON key names (JSON name or proto name).
 * Internal (not re-exported from the package root); shared with parse.ts.
 */
export function fieldByKey(typeName: string, key: string): FieldSchema | undefined {
  let index = fieldIndexes.get(typeName);
  if (!index) {
    index = new Map();
    for (const f of PROTO_SCHEMA.messages[typeName] ?? []) {
      index.set(f.name, f);
      index.set(f.json, f);
    }
    fieldIndexes.set(typeName, index);
  }
  return index.get(key);
}

class Context {
  readonly violations: FieldViolation[] = [];
  constructor(
    readonly maxDepth: number,
    readonly maxViolations: number,
    readonly ignoreUnknownFields: boolean,
  ) {}

  add(field: string, description: string): void {
    if (this.violations.length >= this.maxViolations) {
      this.violations.push({ field: '', description: 'too many violations; the remaining ones were not reported' });
      throw TOO_MANY;
    }
    this.violations.push({ field, description });
  }
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validateMessage(ctx: Context, typeName: string, value: unknown, path: string, depth: number): void {
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
  const fields = PROTO_SCHEMA.messages[typeName]!;
  const seen = new Map<FieldSchema, string>();
  const oneofs = new Map<string, string>();
  for (const key of Object.keys(value)) {
    const keyPath = join(path, key);
    const field = fieldByKey(typeName, key);
    if (!field) {
      if (!ctx.ignoreUnknownFields) ctx.add(keyPath, `unknown field (not part of ${typeName})`);
      continue;
    }
    const earlier = seen.get(field);
    if (earlier !== undefined) {
      ctx.add(keyPath, `field "${field.json}" is set twice (as "${earlier}" and "${key}")`);
      continue;
    }
    seen.set(field, key);
    const fieldValue = value[key];
    const isValue = field.kind === 'message' && field.type === 'google.protobuf.Value';
    if (fieldValue === null && !isValue) continue; // null = default value
    if (field.oneof !== undefined) {
      const other = oneofs.get(field.oneof);
      if (other !== undefined) {
        const members = fields.filter((f) => f.oneof === field.oneof).map((f) => f.json);
        ctx.add(keyPath, `only one of ${members.join(', ')} may be set (oneof "${field.oneof}"), but "${other}" is set too`);
        continue;
      }
      oneofs.set(field.oneof, key);
    }
    validateField(ctx, field, fieldValue, keyPath, depth);
  }
}

function validateField(ctx: Context, field: FieldSchema, value: unknown, path: string, depth: number): void {
  if (field.kind === 'map') {
    if (!isPlainObject(value)) {
      ctx.add(path, `expected a JSON object (map), got ${jsonTypeOf(value)}`);
      return;
    }
    for (const [k, v] of Object.entries(value)) {
      const entryPath = `${path}[${JSON.stringify(k)}]`;
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
function validateSingle(ctx: Context, type: ValueTypeSchema, value: unknown, path: string, depth: number, nullAllowed: boolean): void {
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

function checkEnum(enumName: string, value: unknown): string | undefined {
  const values = PROTO_SCHEMA.enums[enumName]!;
  if (typeof value === 'string') {
    return Object.hasOwn(values, value) ? undefined : `unknown ${enumName} value "${value}" (expected one of ${Object.keys(values).join(', ')})`;
  }
  if (typeof value === 'number') {
    return Object.values(values).includes(value) ? undefined : `unknown ${enumName} number ${value}`;
  }
  return `expected an enum value name (string) or number, got ${jsonTypeOf(value)}`;
}

const INT32: [number, number] = [-2147483648, 2147483647];
const UINT32: [number, number] = [0, 4294967295];
const INT64: [bigint, bigint] = [-(2n ** 63n), 2n ** 63n - 1n];
const UINT64: [bigint, bigint] = [0n, 2n ** 64n - 1n];
const FLOAT_MAX = 3.4028234663852886e38;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const BASE64 = /^[A-Za-z0-9+/\-_]*={0,2}$/;

function rangeOf(kind: ScalarKind): [number, number] | [bigint, bigint] {
  switch (kind) {
    case 'int32':
    case 'sint32':
    case 'sfixed32':
      return INT32;
    case 'uint32':
    case 'fixed32':
      return UINT32;
    case 'int64':
    case 'sint64':
    case 'sfixed64':
      return INT64;
    default:
      return UINT64;
  }
}

/** Returns a description of what is wrong with a scalar value, or undefined when it is fine. */
function checkScalar(kind: ScalarKind, value: unknown): string | undefined {
  switch (kind) {
    case 'string':
      return typeof value === 'string' ? undefined : `expected a string, got ${jsonTypeOf(value)}`;
    case 'bool':
      return typeof value === 'boolean' ? undefined : `expected a boolean, got ${jsonTypeOf(value)}`;
    case 'bytes':
      if (typeof value !== 'string') return `expected a base64 string, got ${jsonTypeOf(value)}`;
      return isBase64(value) ? undefined : 'expected a base64 string';
    case 'double':
    case 'float':
      return checkFloat(kind, value);
    default:
      return checkInteger(kind, value);
  }
}

function isBase64(s: string): boolean {
  if (!BASE64.test(s)) return false;
  const padded = s.endsWith('=');
  if (padded) return s.length % 4 === 0;
  return s.length % 4 !== 1;
}

function checkFloat(kind: 'double' | 'float', value: unknown): string | undefined {
  let n: number;
  if (typeof value === 'number') {
    n = value;
  } else if (typeof value === 'string') {
    if (value === 'NaN' || value === 'Infinity' || value === '-Infinity') return undefined;
    if (!JSON_NUMBER.test(value)) return `expected a number, got the string "${value}"`;
    n = Number(value);
  } else {
    return `expected a number, got ${jsonTypeOf(value)}`;
  }
  if (!Number.isFinite(n) || (kind === 'float' && Math.abs(n) > FLOAT_MAX)) return `number out of range for ${kind}`;
  return undefined;
}

function checkInteger(kind: ScalarKind, value: unknown): string | undefined {
  const [min, max] = rangeOf(kind);
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return `expected an integer (${kind}), got ${value}`;
    if (typeof min === 'number') {
      return value >= min && value <= (max as number) ? undefined : `${value} is out of range for ${kind}`;
    }
    text = String(value);
    if (!Number.isSafeInteger(value)) return `${kind} values beyond 2^53 must be sent as strings`;
  } else if (typeof value === 'string') {
    if (!JSON_NUMBER.test(value)) return `expected an integer (${kind}), got the string "${value}"`;
    text = value;
  } else {
    return `expected an integer (${kind}), got ${jsonTypeOf(value)}`;
  }
  const big = toBigIntExact(text);
  if (big === undefined) return `expected an integer (${kind}), got "${text}"`;
  return big >= BigInt(min) && big <= BigInt(max) ? undefined : `${text} is out of range for ${kind}`;
}

/** Converts a JSON-number string to a BigInt when it denotes an integer (e.g. "1e3", "5.0"). */
function toBigIntExact(text: string): bigint | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return undefined;
  const [, sign, int, frac = '', expText = '0'] = m;
  const exp = Number(expText);
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 400) return undefined;
  let digits = int! + frac;
  let scale = exp - frac.length; // value = digits * 10^scale
  if (scale < 0) {
    const cut = digits.length + scale;
    const dropped = cut > 0 ? digits.slice(cut) : digits;
    if (/[^0]/.test(dropped)) return undefined;
    digits = cut > 0 ? digits.slice(0, cut) : '0';
    scale = 0;
  }
  return BigInt(sign + digits + '0'.repeat(scale));
}

function checkMapKey(kind: ScalarKind, key: string): string | undefined {
  switch (kind) {
    case 'string':
      return undefined;
    case 'bool':
      return key === 'true' || key === 'false' ? undefined : `map key must be "true" or "false"`;
    default: {
      if (!/^-?(?:0|[1-9]\d*)$/.test(key)) return `map key must be an integer (${kind})`;
      const problem = checkInteger(kind, key);
      return problem ? `map key: ${problem}` : undefined;
    }
  }
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * True when `s` is an RFC 3339 date-time acceptable as a google.protobuf.Timestamp (the rule
 * validateProtoJson applies). Exported for inputs that arrive outside a JSON body, e.g. the
 * HTTP+JSON `statusTimestampAfter` query parameter of ListTasks.
 */
export function isRfc3339Timestamp(s: string): boolean {
  const m = RFC3339.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (year < 1 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const maxDay = month === 2 ? (leap ? 29 : 28) : DAYS_IN_MONTH[month - 1]!;
  if (day < 1 || day > maxDay) return false;
  if (m[8] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  return true;
}

function validateWellKnown(ctx: Context, typeName: string, value: unknown, path: string, depth: number): void {
  switch (typeName) {
    case 'google.protobuf.Timestamp':
      if (typeof value !== 'string') {
        ctx.add(path, `expected an RFC 3339 timestamp string, got ${jsonTypeOf(value)}`);
      } else if (!isRfc3339Timestamp(value)) {
        ctx.add(path, `expected an RFC 3339 timestamp (e.g. 2026-01-02T03:04:05.678Z), got "${value}"`);
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
      if (!ctx.ignoreUnknownFields) for (const key of Object.keys(value)) ctx.add(join(path, key), 'unknown field (not part of google.protobuf.Empty)');
      return;
  }
}

/** Checks that a Struct / Value payload is real JSON (as it always is after JSON.parse) within the depth limit. */
function checkJsonValue(ctx: Context, value: unknown, path: string, depth: number): void {
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
      for (const [k, v] of Object.entries(value)) checkJsonValue(ctx, v, join(path, k), depth + 1);
    }
    return;
  }
  ctx.add(path, `not a JSON value (${typeof value})`);
}
