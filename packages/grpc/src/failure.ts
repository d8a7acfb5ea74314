import { A2AError, type CallContext, type Logger, logFailure } from '@a2a-polyglot/core';
import { toGrpcError, type GrpcErrorStatus, type StatusWording } from './grpc-error.js';
import { extensionsMetadata } from './metadata.js';

/**
 * Turns anything an operation threw into the gRPC status to send. Unexpected failures are
 * logged here with their cause (the client only ever sees the generic A2A message), to the
 * call's logger when it has one (binding, request id, trace id, task id).
 * `status` rewords the status (the v0.3 service prefixes the error class name to the text and
 * uses the v0.3 status codes).
 */
export function failure(
  logger: Logger,
  error: unknown,
  ctx: CallContext | undefined,
  where: string,
  status?: (error: A2AError) => StatusWording,
): GrpcErrorStatus {
  const a2a = asA2AError(ctx?.logger ?? logger, error, where);
  return toGrpcError(a2a, extensionsMetadata(ctx?.activatedExtensions), status?.(a2a));
}

/** {@link A2AError.from}, logged by core's one rule (`logFailure`: server faults with their cause). */
export function asA2AError(logger: Logger, error: unknown, where: string): A2AError {
  const a2a = A2AError.from(error);
  logFailure(logger, a2a, where);
  return a2a;
}
