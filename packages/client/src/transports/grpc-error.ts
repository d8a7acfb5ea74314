import { A2AError, A2AErrorCode, codeFromGrpcStatus, codeFromReason, GRPC_STATUS_DETAILS_KEY, GrpcStatus, type FieldViolation } from '@a2a-polyglot/core';
import { BadRequest, ErrorInfo, Status } from '@a2a-polyglot/model/rpc';
import type { Metadata, ServiceError, StatusObject } from '@grpc/grpc-js';

/*
 * The client's half of the gRPC error mapping (status + `grpc-status-details-bin` trailer →
 * A2AError); the server's half (`toGrpcError`) is in `@a2a-polyglot/grpc`. The ErrorInfo reason
 * and the status-code fallback go through core's one error table.
 */

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
  const raw = metadata?.get(GRPC_STATUS_DETAILS_KEY)[0];
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
