import type { Logger, ServedHandler } from '@a2a-polyglot/core';
import type { Metadata, ServerUnaryCall } from '@grpc/grpc-js';
import type { CallRouter } from './agent-router.js';
import type { GrpcDialect, RpcRoute } from './grpc-dialect.js';

/** Picks the handler (and the tenant it sees) of one call from its metadata and decoded core request. */
export type CallTarget = (metadata: Metadata, coreRequest: unknown) => { handler: ServedHandler; tenant?: string };

/** The {@link CallTarget} of a service: the router's choice, or always `handler`. */
export function callTarget(handler: ServedHandler, router: CallRouter | undefined): CallTarget {
  if (!router) return () => ({ handler });
  return (metadata, coreRequest) => router(metadata, tenantOf(coreRequest));
}

/** The `tenant` field of a core request ('' when it has none: the default agent). */
function tenantOf(coreRequest: unknown): string {
  if (typeof coreRequest !== 'object' || coreRequest === null || !('tenant' in coreRequest)) return '';
  return typeof coreRequest.tenant === 'string' ? coreRequest.tenant : '';
}

/**
 * Spends the address point of a call that has just arrived, before its request is decoded
 * (`RequestHandler.chargeArrival`); undefined when no address limit applies.
 */
export type ChargeArrival = (call: Pick<ServerUnaryCall<unknown, unknown>, 'getPeer'>) => Promise<void> | undefined;

/** Everything serving calls of one registered RPC needs, fixed when the service is added. */
export interface ServedRpc {
  readonly route: RpcRoute;
  readonly target: CallTarget;
  /**
   * Charged on the service's handler: the agents a router picks share its rate limiter (the
   * executor gives every agent the same one), and learn only that the point is spent.
   */
  readonly chargeArrival: ChargeArrival;
  readonly dialect: GrpcDialect;
  /** Where unexpected failures are logged (a call's own logger is preferred once it has one). */
  readonly logger: Logger;
}
