import { OPERATIONS, type A2AError, type Operation, type OperationName, type ProtocolVersion } from '@a2a-polyglot/core';
import type { StatusWording } from './grpc-error.js';

/**
 * How one generated RPC reaches the core: its OPERATIONS entry, and the converters between
 * the generated message types and the v1.0 model the core speaks (identity for v1.0).
 */
export interface RpcRoute {
  readonly op: Operation;
  /** Decoded wire request → the operation's request. May throw an A2AError (bad input). */
  readonly toCore: (request: unknown) => unknown;
  /** The operation's response (or one stream event) → the wire message. */
  readonly fromCore: (response: unknown) => unknown;
}

/**
 * How one generation of A2A spells the gRPC binding (the server side of the client's
 * `GrpcDialect`): what its service adds to the shared serving code of serve-service.ts is
 * which operation and converters each RPC uses, the generation its calls are decoded in
 * (checked by the core against the `a2a-version` metadata) and how a failed call's status reads.
 */
export interface GrpcDialect {
  /** The route of an RPC, by its name (`GetTask`). */
  route(rpc: string): RpcRoute;
  /** The generation of the codec (`CallContext.wireVersion`); undefined is v1.0. */
  readonly wireVersion?: ProtocolVersion;
  /** Status code and message of a failed call. Default: the ERROR_TABLE code and the error's message. */
  readonly status?: (error: A2AError) => StatusWording;
}

/** The codec half of a generated grpc-js method definition that {@link rpcRoute} checks converters against. */
export interface GeneratedMethod<Req, Wire> {
  readonly requestDeserialize: (bytes: Buffer) => Req;
  readonly responseSerialize: (message: Wire) => Buffer;
}

/**
 * An {@link RpcRoute} whose converters the compiler checks against the RPC's generated
 * method: `toCore` takes the message the method's deserializer makes, `fromCore` returns the
 * message its serializer takes. The route then forgets those types, because grpc-js hands
 * every call's request over untyped; the one trusted step is that the request of this RPC was
 * made by `method.requestDeserialize` (serveService registers the route under the same
 * method) and the response comes from `op` (whose answer type core's OPERATIONS table does
 * not carry).
 */
export function rpcRoute<Req, Wire, CoreResponse>(
  _method: GeneratedMethod<Req, Wire>,
  op: Operation,
  toCore: (request: Req) => unknown,
  fromCore: (response: CoreResponse) => Wire,
): RpcRoute {
  return { op, toCore: (request) => toCore(request as Req), fromCore: (response) => fromCore(response as CoreResponse) };
}

const identity = (value: unknown): unknown => value;

/**
 * The v1.0 dialect (`lf.a2a.v1.A2AService`) speaks the core's own model: each RPC is the
 * OPERATIONS entry of the same name, nothing to convert (DeleteTaskPushNotificationConfig
 * answers google.protobuf.Empty).
 */
export const V1_GRPC: GrpcDialect = {
  route(rpc: string): RpcRoute {
    const op = OPERATIONS[rpc as OperationName];
    return { op, toCore: identity, fromCore: op.kind === 'unary' && !op.response ? () => ({}) : identity };
  },
};
