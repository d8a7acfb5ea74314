import { type A2AError, BAD_REQUEST_TYPE, ERROR_INFO_TYPE, ERROR_TABLE, errorDomain, GRPC_STATUS_DETAILS_KEY } from '@a2a-polyglot/core';
import { type Any, BadRequest, ErrorInfo, Status } from '@a2a-polyglot/model/rpc';
import { Metadata } from '@grpc/grpc-js';

/*
 * The server's half of the gRPC error mapping (A2AError → status + details trailer). The
 * client's half (trailer → A2AError) is `fromGrpcError` in `@a2a-polyglot/client/grpc`; the
 * trailer key and the `type_url`s both use are core's.
 */

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
  const details: Any[] = [{ typeUrl: ERROR_INFO_TYPE, value: ErrorInfo.encode(info).finish() }];
  if (error.fieldViolations.length > 0) {
    const badRequest = BadRequest.fromPartial({ fieldViolations: error.fieldViolations.map((v) => ({ field: v.field, description: v.description })) });
    details.push({ typeUrl: BAD_REQUEST_TYPE, value: BadRequest.encode(badRequest).finish() });
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
  metadata.set(GRPC_STATUS_DETAILS_KEY, Buffer.from(Status.encode(status).finish()));
  return { code: status.code, details: status.message, message: status.message, metadata };
}
