import { A2AError, A2AErrorCode, type CallContext, type Logger } from '@a2a-polyglot/core';
import { toGrpcError, type GrpcErrorStatus } from './grpc-error.js';
import { extensionsMetadata } from './metadata.js';

/**
 * Turns anything an operation threw into the gRPC status to send. Unexpected failures are
 * logged here with their cause (the client only ever sees the generic A2A message).
 */
export function failure(logger: Logger, error: unknown, ctx: CallContext | undefined, where: string): GrpcErrorStatus {
  return toGrpcError(asA2AError(logger, error, where), extensionsMetadata(ctx?.activatedExtensions));
}

/** {@link A2AError.from}, logging the cause of failures that are our fault. */
export function asA2AError(logger: Logger, error: unknown, where: string): A2AError {
  const a2a = A2AError.from(error);
  if (a2a.code === A2AErrorCode.Internal || a2a.code === A2AErrorCode.InvalidAgentResponse) {
    logger.error(`${where} failed`, { code: a2a.code, error: a2a.cause ?? a2a });
  }
  return a2a;
}
