import { A2AError, A2AErrorCode, OPERATIONS, type OperationName } from '@a2a-polyglot/core';
import type { GrpcCallOptions } from './grpc-channel.js';
import type { GrpcEventStream, GrpcTransport as GrpcClient } from './grpc-service-client.js';

/** A unary method of the gRPC client, taking the decoded request of its operation as `unknown`. */
type UnaryMethod = (request: unknown, options: GrpcCallOptions) => Promise<unknown>;

/**
 * How one generation of A2A calls the gRPC service: v1.0 `lf.a2a.v1.A2AService`, or v0.3
 * `a2a.v1.A2AService`. Requests go in, and answers come out, as v1.0 messages; the channel,
 * deadlines, aborts and errors are the transport's, the same for both.
 */
export interface GrpcDialect {
  /** `false`: no `a2a-version` metadata (v0.3). */
  readonly versionMetadata: boolean;
  /** One unary call; resolves to the v1.0 response. */
  unary(client: GrpcClient, operation: OperationName, request: unknown, options: GrpcCallOptions): Promise<unknown>;
  /** Opens a stream of v1.0 events. */
  stream(client: GrpcClient, operation: OperationName, request: unknown, options: GrpcCallOptions, resumeAfterSeq: number | undefined): GrpcEventStream;
}

/**
 * The gRPC client's method of a unary operation: named as the operation with a lower-case
 * first letter (`GetTask` → `getTask`), so no second list of the operations is kept here.
 */
function unaryMethod(client: GrpcClient, operation: OperationName): UnaryMethod {
  if (OPERATIONS[operation].kind !== 'unary') throw new A2AError(A2AErrorCode.MethodNotFound, `${operation} is not a unary gRPC method`);
  const name = `${operation[0]?.toLowerCase()}${operation.slice(1)}` as keyof GrpcClient;
  return (client[name] as UnaryMethod).bind(client);
}

/** A2A v1.0 over gRPC (`lf.a2a.v1.A2AService`), through the typed client of `grpc-service-client.ts`. */
export const V1_GRPC: GrpcDialect = {
  versionMetadata: true,
  unary: (client, operation, request, options) => unaryMethod(client, operation)(request, options),
  stream: (client, operation, request, options, resumeAfterSeq) =>
    operation === 'SubscribeToTask'
      ? client.subscribeToTask(request as never, { ...options, lastEventId: resumeAfterSeq })
      : client.sendStreamingMessage(request as never, options),
};
