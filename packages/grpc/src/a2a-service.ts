import { OPERATIONS, type OperationName, type ServedHandler } from '@a2a-polyglot/core';
import { A2AServiceService } from '@a2a-polyglot/model/grpc';
import type { Server } from '@grpc/grpc-js';
import { serveService, type A2AServiceBinding, type A2AServiceOptions } from './serve-service.js';
import type { RpcRoute, ServiceWire } from './service-wire.js';

export type { A2AServiceBinding, A2AServiceOptions } from './serve-service.js';

const identity = (value: unknown): unknown => value;

/**
 * The v1.0 service speaks the core's own model: each RPC is the OPERATIONS entry of the same
 * name, nothing to convert (DeleteTaskPushNotificationConfig answers google.protobuf.Empty).
 */
const V1_WIRE: ServiceWire = {
  route(rpc: string): RpcRoute {
    const op = OPERATIONS[rpc as OperationName];
    return { op, toCore: identity, fromCore: op.kind === 'unary' && !op.response ? () => ({}) : identity };
  },
};

/**
 * Registers the standard `lf.a2a.v1.A2AService` (all 11 RPCs) on a grpc-js server, every
 * RPC served by the same {@link RequestHandler} through the core's OPERATIONS table: the
 * binding only decodes, calls and encodes (see {@link serveService}).
 */
export function addA2AService(server: Server, handler: ServedHandler, options: A2AServiceOptions = {}): A2AServiceBinding {
  return serveService(server, A2AServiceService, handler, V1_WIRE, options);
}
