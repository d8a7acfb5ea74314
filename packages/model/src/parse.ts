import { PROTO_SCHEMA } from './gen/proto-schema.js';
import type { FieldSchema, ValueTypeSchema } from './schema.js';
import { fieldByKey, resolveMessageType } from './schema-lookup.js';
import { type FieldViolation, type ValidateOptions, validateProtoJson } from './validate.js';

/**
 * Thrown by {@link parseProtoJson} when the input is not valid ProtoJSON for the expected
 * message. Carries every violation so a transport can answer with one InvalidParams / 400
 * listing all bad fields (google.rpc.BadRequest `fieldViolations`).
 */
export class ProtoJsonError extends Error {
  override readonly name = 'ProtoJsonError';

  constructor(
    /** Full name of the message type that was expected, e.g. `lf.a2a.v1.SendMessageRequest`. */
    readonly typeName: string,
    /** The problems found, in document order. Never empty. */
    readonly violations: FieldViolation[],
  ) {
    const first = violations[0];
    const where = first && first.field !== '' ? `${first.field}: ` : '';
    const more = violations.length > 1 ? ` (and ${violations.length - 1} more)` : '';
    super(`Invalid ${typeName} JSON: ${where}${first?.description ?? 'invalid'}${more}`);
  }
}

/**
 * Validates `json` strictly as ProtoJSON of `typeName` (see {@link validateProtoJson}; pass
 * `ignoreUnknownFields` to skip and drop members no field has), then
 * builds the message with the ts-proto `fromJSON` of that type (pass the generated message
 * object, e.g. `parseProtoJson('SendMessageRequest', SendMessageRequest, body)`).
 *
 * Why not call `fromJSON` directly: it coerces wrong types and ignores unknown fields. Before
 * handing the input to `fromJSON` it is also normalised to the canonical form ts-proto reads
 * best: snake_case keys renamed to their JSON names, `null` fields dropped (= default), and
 * URL-safe / unpadded base64 turned into standard padded base64 (browsers' `atob` needs it).
 * Timestamps keep the string the client sent (`useDate=string`).
 *
 * @throws ProtoJsonError when the input is invalid; Error when `typeName` is unknown.
 */
export function parseProtoJson<T>(typeName: string, fns: { fromJSON(object: unknown): T }, json: unknown, options?: ValidateOptions): T {
  const fullName = resolveMessageType(typeName);
  const violations = validateProtoJson(fullName, json, options);
  if (violations.length > 0) throw new ProtoJsonError(fullName, violations);
  return fns.fromJSON(normalizeMessage(fullName, json));
}

/**
 * Rewrites already-validated ProtoJSON into canonical keys (see parseProtoJson). Members no
 * field has (left in by `ignoreUnknownFields`) are dropped here, so they never reach the model.
 */
function normalizeMessage(typeName: string, value: unknown): unknown {
  const fields = PROTO_SCHEMA.messages[typeName];
  if (!fields) return typeName === 'google.protobuf.Empty' ? {} : value; // Struct / Value / ListValue / Timestamp
  const input = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    const field = fieldByKey(typeName, key);
    if (!field) continue;
    const v = input[key];
    if (v === null && !(field.kind === 'message' && field.type === 'google.protobuf.Value')) continue;
    out[field.json] = normalizeField(field, v);
  }
  return out;
}

function normalizeField(field: FieldSchema, value: unknown): unknown {
  if (field.kind === 'map') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      // defineProperty: a "__proto__" map key stays an ordinary key
      Object.defineProperty(out, k, { value: normalizeSingle(field.value, v), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  if (field.repeated) return (value as unknown[]).map((v) => normalizeSingle(field, v));
  return normalizeSingle(field, value);
}

function normalizeSingle(type: ValueTypeSchema, value: unknown): unknown {
  if (type.kind === 'message') return normalizeMessage(type.type, value);
  if (type.kind === 'bytes') return toStandardBase64(value as string);
  return value;
}

function toStandardBase64(s: string): string {
  const std = s.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  return std + '='.repeat((4 - (std.length % 4)) % 4);
}
