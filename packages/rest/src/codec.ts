import { encodeStreamResponseJson, type FieldSchema, PROTO_SCHEMA, resolveMessageType, type StreamResponse } from '@a2a-polyglot/model';
import { A2AError, A2AErrorCode, type DecodeRequestOptions, type FieldViolation } from '@a2a-polyglot/core';
import { VERSION_QUERY_PARAM } from '@a2a-polyglot/http';

/**
 * Builds the ProtoJSON of a request message (`requestType`: an operation's, or a v0.3
 * `a2a.v1.*` one) from the three places REST spreads it over (spec §3.4): path parameters,
 * the query string (GET/DELETE) and the body (POST).
 * The result is then decoded by core's `decodeJsonRequest` with the same `options`, exactly
 * like JSON-RPC params, so both bindings accept and reject the same inputs.
 *
 * - Query names are the request's JSON field names (camelCase; snake_case accepted too).
 *   Values are converted by field type: integers and booleans parsed, enums and timestamps
 *   passed as strings, repeated fields from repeated keys or comma lists. Nested messages
 *   cannot be expressed in a query. Names no field has are ignored, like unknown body
 *   members (InvalidParams, 400, with `options.strict`); a field bound in the path, or any
 *   field in the query of a POST, is InvalidParams either way.
 * - `A2A-Version` may appear in any query (spec §3.2); it is a service parameter, not a field.
 * - Path-bound fields win; the body may repeat one only with the same value.
 */
export function buildRequestJson(
  requestType: string,
  params: Readonly<Record<string, string>>,
  query: URLSearchParams,
  body: unknown,
  fromQuery: boolean,
  options: DecodeRequestOptions = {},
): Record<string, unknown> {
  const fields = PROTO_SCHEMA.messages[resolveMessageType(requestType)] ?? [];
  const strict = options.strict ?? false;
  const json = fromQuery ? queryToJson(fields, query, params, strict) : bodyToJson(fields, body, query, strict);
  const violations: FieldViolation[] = [];
  for (const name in params) {
    const value = params[name] as string;
    const field = fields.find((f) => f.json === name);
    if (!field) throw new A2AError(A2AErrorCode.Internal, `Path parameter ${name} is no field of ${requestType}`);
    for (const key of [field.json, field.name]) {
      if (key in json && json[key] !== value) violations.push({ field: key, description: `conflicts with the path value "${value}"` });
      delete json[key];
    }
    json[field.json] = value;
  }
  if (violations.length > 0) throw invalidParams(violations);
  return json;
}

/** One SSE `data:` of a REST stream: the bare StreamResponse JSON (spec §3.4). */
export function encodeStreamData(event: StreamResponse): string {
  return encodeStreamResponseJson(event);
}

function bodyToJson(fields: readonly FieldSchema[], body: unknown, query: URLSearchParams, strict: boolean): Record<string, unknown> {
  // Most POSTs carry no query at all.
  const extra = query.size === 0 ? [] : [...query.keys()].filter((k) => !isVersionParam(k) && (strict || fieldOf(fields, k)));
  if (extra.length > 0) throw invalidParams(extra.map((k) => ({ field: k, description: 'unknown query parameter (send request fields in the body)' })));
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new A2AError(A2AErrorCode.InvalidParams, 'The request body must be a JSON object', {
      fieldViolations: [{ field: '', description: 'must be a JSON object' }],
    });
  }
  return { ...(body as Record<string, unknown>) };
}

function queryToJson(
  fields: readonly FieldSchema[],
  query: URLSearchParams,
  pathParams: Readonly<Record<string, string>>,
  strict: boolean,
): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  const violations: FieldViolation[] = [];
  for (const key of new Set(query.keys())) {
    if (isVersionParam(key)) continue;
    const field = fieldOf(fields, key);
    if (!field && !strict) continue;
    if (!field || field.json in pathParams) {
      violations.push({ field: key, description: field ? 'is bound in the path' : 'unknown query parameter' });
      continue;
    }
    const values = query.getAll(key);
    const converted = convertQueryField(field, values);
    if ('violation' in converted) violations.push({ field: key, description: converted.violation });
    else json[field.json] = converted.value;
  }
  if (violations.length > 0) throw invalidParams(violations);
  return json;
}

function convertQueryField(field: FieldSchema, values: string[]): { value: unknown } | { violation: string } {
  if (field.kind === 'map' || (field.kind === 'message' && field.type !== 'google.protobuf.Timestamp')) {
    return { violation: 'objects cannot be sent in the query string' };
  }
  if (field.repeated) return { value: values.flatMap((v) => v.split(',')).map((v) => convertScalar(field.kind, v)) };
  const [value, ...more] = values;
  if (more.length > 0) return { violation: 'given more than once' };
  return { value: convertScalar(field.kind, value ?? '') };
}

/** Parses what has an obvious JSON form; anything else stays a string for the strict decoder to judge. */
function convertScalar(kind: string, value: string): unknown {
  if (kind === 'bool') return value === 'true' ? true : value === 'false' ? false : value;
  // 64-bit integers stay strings (their ProtoJSON form), so no digit is lost past 2^53.
  if (/64/.test(kind)) return value;
  if (/int|fixed/.test(kind)) return /^-?\d+$/.test(value) ? Number(value) : value;
  if (kind === 'double' || kind === 'float') return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
  return value;
}

/** The field a query name names (JSON or proto name), if any. */
function fieldOf(fields: readonly FieldSchema[], key: string): FieldSchema | undefined {
  return fields.find((f) => f.json === key || f.name === key);
}

function isVersionParam(key: string): boolean {
  return key === VERSION_QUERY_PARAM || key === VERSION_QUERY_PARAM.toLowerCase();
}

function invalidParams(violations: FieldViolation[]): A2AError {
  const summary = violations.map((v) => `${v.field || '(body)'} ${v.description}`).join('; ');
  return new A2AError(A2AErrorCode.InvalidParams, `Invalid request: ${summary}`, { fieldViolations: violations });
}
