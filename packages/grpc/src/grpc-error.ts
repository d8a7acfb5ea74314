import { A2AError, A2AErrorCode, codeFromGrpcStatus, codeFromReason, ERROR_TABLE, errorDomain, GrpcStatus, type FieldViolation } from '@a2a-polyglot/core';
import { type Any, BadRequest, ErrorInfo, Status } from '@a2a-polyglot/model/rpc';
import { Metadata, type ServiceError, type StatusObject } from '@grpc/grpc-js';

/** The binary trailer that carries the full `google.rpc.Status` of a failed call. */
export const STATUS_DETAILS_KEY = 'grpc-status-details-bin';

/** `type_url` of a packed ErrorInfo. */
export const ERROR_INFO_TYPE_URL = 'type.googleapis.com/google.rpc.ErrorInfo';
/** `type_url` of a packed BadRequest. */
export const BAD_REQUEST_TYPE_URL = 'type.googleapis.com/google.rpc.BadRequest';

/**
 * The `google.rpc.Status` of an A2AError: the gRPC code from {@link ERROR_TABLE} (unless the
 * service's generation says otherwise), the message, an ErrorInfo always (A2A requires it on
 * gRPC so clients can tell apart errors that share a status code), and a BadRequest when the
 * error names invalid fields.
 */
export function rpcStatusOf(error: A2AError, message = error.message, code: number = ERROR_TABLE[error.code].grpc): Status {
  // Metadata in key order, so the same error always encodes to the same bytes.
  const metadata = Object.fromEntries(Object.entries(error.metadata).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const info = ErrorInfo.fromPartial({ reason: error.reason, domain: errorDomain(error.code), metadata });
  const details: Any[] = [{ typeUrl: ERROR_INFO_TYPE_URL, value: ErrorInfo.encode(info).finish() }];
  if (error.fieldViolations.length > 0) {
    const badRequest = BadRequest.fromPartial({ fieldViolations: error.fieldViolations.map((v) => ({ field: v.field, description: v.description })) });
    details.push({ typeUrl: BAD_REQUEST_TYPE_URL, value: BadRequest.encode(badRequest).finish() });
  }
  return { code, message, details };
}

/** What grpc-js needs to end a call with an A2A error (`callback(err)` / `call.emit('error', err)`). */
export interface GrpcErrorStatus {
  readonly code: number;
  readonly details: string;
  readonly message: string;
  readonly metadata: Metadata;
}

/** A status code and text that replace an error's defaults (the v0.3 service's wording). */
export interface StatusWording {
  readonly code: number;
  readonly message: string;
}

/**
 * Turns an A2AError into a grpc-js status with the `grpc-status-details-bin` trailer.
 * `extra` metadata (e.g. the echoed `a2a-extensions`) is merged into the trailers; `wording`
 * replaces the status code and text (default: the ERROR_TABLE code and the error's message).
 */
export function toGrpcError(error: A2AError, extra?: Metadata, wording?: StatusWording): GrpcErrorStatus {
  const status = rpcStatusOf(error, wording?.message, wording?.code);
  const metadata = extra ? extra.clone() : new Metadata();
  metadata.set(STATUS_DETAILS_KEY, Buffer.from(Status.encode(status).finish()));
  return { code: status.code, details: status.message, message: status.message, metadata };
}

/** grpc-js's own text when a message exceeds `grpc.max_{receive,send}_message_length`. */
const SIZE_LIMIT_TEXT = /larger than max|larger than \d+/i;

/**
 * Rebuilds an A2AError from a failed gRPC call. The ErrorInfo reason in
 * `grpc-status-details-bin` decides the code; without it (a peer that sends none, or an
 * error raised by the gRPC runtime itself) the status code is mapped by
 * {@link codeFromGrpcStatus}, with two refinements: a size-limit RESOURCE_EXHAUSTED becomes
 * PayloadTooLarge, and CANCELLED (our own cancel) becomes DeadlineExceeded like any abort.
 */
export function fromGrpcError(error: Partial<StatusObject> & { message?: string; metadata?: Metadata }): A2AError {
  const code: number = error.code ?? GrpcStatus.UNKNOWN;
  const status = readStatusDetails(error.metadata);
  const message = status?.message || error.details || error.message || `gRPC status ${code}`;
  let reason: string | undefined;
  let metadata: Record<string, string> | undefined;
  const fieldViolations: FieldViolation[] = [];
  for (const detail of status?.details ?? []) {
    try {
      const type = typeNameOf(detail.typeUrl);
      if (type === 'google.rpc.ErrorInfo') {
        const info = ErrorInfo.decode(detail.value);
        reason = info.reason;
        metadata = { ...info.metadata };
      } else if (type === 'google.rpc.BadRequest') {
        for (const v of BadRequest.decode(detail.value).fieldViolations) fieldViolations.push({ field: v.field, description: v.description });
      }
    } catch {
      // An undecodable detail is ignored; the status code still tells the story.
    }
  }
  const a2aCode =
    codeFromReason(reason) ??
    (code === GrpcStatus.RESOURCE_EXHAUSTED && SIZE_LIMIT_TEXT.test(message)
      ? A2AErrorCode.PayloadTooLarge
      : code === GrpcStatus.CANCELLED
        ? A2AErrorCode.DeadlineExceeded
        : codeFromGrpcStatus(code));
  return new A2AError(a2aCode, message, { metadata, fieldViolations, cause: error });
}

/** Reads and decodes the `grpc-status-details-bin` trailer, if present and well-formed. */
export function readStatusDetails(metadata: Metadata | undefined): Status | undefined {
  const raw = metadata?.get(STATUS_DETAILS_KEY)[0];
  if (!raw || typeof raw === 'string') return undefined;
  try {
    return Status.decode(raw);
  } catch {
    return undefined;
  }
}

/** True for grpc-js ServiceError objects (what client callbacks and streams reject with). */
export function isServiceError(value: unknown): value is ServiceError {
  return typeof value === 'object' && value !== null && typeof (value as ServiceError).code === 'number' && 'metadata' in value;
}

/** Strips the host part of a type URL (`type.googleapis.com/google.rpc.ErrorInfo` → `google.rpc.ErrorInfo`). */
function typeNameOf(typeUrl: string): string {
  return typeUrl.slice(typeUrl.lastIndexOf('/') + 1);
}
