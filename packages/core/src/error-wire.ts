import { A2AError, type FieldViolation } from './a2a-error.js';
import { A2AErrorCode } from './error-code.js';
import { codeFromHttpStatus, codeFromJsonRpc, codeFromReason, ERROR_TABLE, errorDomain, GrpcStatus } from './error-table.js';

/** ProtoJSON `@type` of `google.rpc.ErrorInfo`. */
export const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
/** ProtoJSON `@type` of `google.rpc.BadRequest`. */
export const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';

/** A `google.rpc.Status` detail in ProtoJSON form (an `Any`). */
export type ErrorDetailJson = { '@type': string } & Record<string, unknown>;

/**
 * The error details every binding sends: an ErrorInfo always (REQUIRED for REST and gRPC,
 * recommended for JSON-RPC), plus a BadRequest when there are field violations.
 */
export function errorDetails(error: A2AError): ErrorDetailJson[] {
  const details: ErrorDetailJson[] = [
    {
      '@type': ERROR_INFO_TYPE,
      reason: error.reason,
      domain: errorDomain(error.code),
      ...(Object.keys(error.metadata).length ? { metadata: { ...error.metadata } } : {}),
    },
  ];
  if (error.fieldViolations.length > 0) {
    details.push({ '@type': BAD_REQUEST_TYPE, fieldViolations: error.fieldViolations.map((v) => ({ field: v.field, description: v.description })) });
  }
  return details;
}

/** JSON-RPC 2.0 `error` member (JSON-RPC binding, WebSocket frames). */
export function toJsonRpcError(error: A2AError): { code: number; message: string; data: ErrorDetailJson[] } {
  return { code: ERROR_TABLE[error.code].jsonRpc, message: error.message, data: errorDetails(error) };
}

/** REST error body: `{"error": google.rpc.Status}` with the HTTP status as `code` (spec §11.6). */
export function toHttpErrorBody(error: A2AError): { error: { code: number; status: string; message: string; details: ErrorDetailJson[] } } {
  const row = ERROR_TABLE[error.code];
  return { error: { code: row.http, status: GrpcStatus[row.grpc], message: error.message, details: errorDetails(error) } };
}

/** Reads ErrorInfo/BadRequest back out of a details array from any binding. */
function parseDetails(details: unknown): { reason?: string; metadata?: Record<string, string>; fieldViolations: FieldViolation[] } {
  const out: { reason?: string; metadata?: Record<string, string>; fieldViolations: FieldViolation[] } = { fieldViolations: [] };
  if (!Array.isArray(details)) return out;
  for (const d of details) {
    if (typeof d !== 'object' || d === null) continue;
    const detail = d as Record<string, unknown>;
    const type = String(detail['@type'] ?? '');
    if (type.endsWith('google.rpc.ErrorInfo') && typeof detail.reason === 'string') {
      out.reason = detail.reason;
      if (typeof detail.metadata === 'object' && detail.metadata !== null) out.metadata = detail.metadata as Record<string, string>;
    } else if (type.endsWith('google.rpc.BadRequest') && Array.isArray(detail.fieldViolations)) {
      for (const v of detail.fieldViolations as Array<Record<string, unknown>>) {
        out.fieldViolations.push({ field: String(v.field ?? ''), description: String(v.description ?? '') });
      }
    }
  }
  return out;
}

/** Rebuilds an A2AError from a JSON-RPC `error` object (reason first, then the numeric code). */
export function fromJsonRpcError(body: { code?: unknown; message?: unknown; data?: unknown }): A2AError {
  const parsed = parseDetails(body.data);
  const code = codeFromReason(parsed.reason) ?? (typeof body.code === 'number' ? codeFromJsonRpc(body.code) : undefined) ?? A2AErrorCode.Internal;
  return new A2AError(code, typeof body.message === 'string' ? body.message : undefined, {
    metadata: parsed.metadata,
    fieldViolations: parsed.fieldViolations,
  });
}

/** Rebuilds an A2AError from a REST error response (status + `{"error": Status}` body, if any). */
export function fromHttpError(status: number, body: unknown): A2AError {
  const status_ = (typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined) as Record<string, unknown> | undefined;
  const parsed = parseDetails(status_?.details);
  const code = codeFromReason(parsed.reason) ?? codeFromHttpStatus(status);
  const message = typeof status_?.message === 'string' ? status_.message : undefined;
  return new A2AError(code, message, { metadata: parsed.metadata, fieldViolations: parsed.fieldViolations });
}
