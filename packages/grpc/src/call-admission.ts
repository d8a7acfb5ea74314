import type { ServedHandler } from '@a2a-polyglot/core';
import type { ServerUnaryCall } from '@grpc/grpc-js';
import { type CallRouter, type RoutedCall, requestTenant } from './agent-router.js';
import type { RpcRoute } from './grpc-dialect.js';
import { peerAddress } from './peer.js';
import type { EncodedRequest } from './safe-decode.js';

/** The parts of a unary or server-streaming call that admission reads. */
export type ArrivingCall = Pick<ServerUnaryCall<EncodedRequest, unknown>, 'getPeer' | 'metadata' | 'request'>;

/** A call ready to run: the agent that serves it, the tenant it sees, its core request. */
export interface AdmittedCall extends RoutedCall {
  readonly coreRequest: unknown;
  /** The call's address point is spent (the call context's `addressCharged`). */
  readonly addressCharged: boolean;
}

/**
 * Spends the address point of an arriving call (`RequestHandler.chargeArrival`), decodes its
 * request and picks its agent. A promise only when a point was charged (no limiter: no
 * promise on the hot path). Throws, or rejects, with the A2AError the call is answered with.
 */
export type AdmitCall = (call: ArrivingCall) => AdmittedCall | Promise<AdmittedCall>;

/**
 * The {@link AdmitCall} of a service whose default agent is `handler` (and the only one without
 * `router`). The point is charged on the agent that serves the call, so each agent's own
 * per-address budget applies over gRPC as on the other bindings, and as early as that agent is
 * known:
 * - a single agent, or a call naming its agent in metadata (`a2a-agent`): charged before
 *   decoding, so a caller over its budget makes the server decode nothing;
 * - a call routed by its request's `tenant`: decoded first (bounded by the server's message
 *   size limit), then charged on the routed agent before it runs.
 * A call that names no agent served here, or whose bytes do not decode, costs the default
 * agent's point like a good call, then fails (over budget: with the RateLimited error).
 */
export function callAdmission(handler: ServedHandler, router: CallRouter | undefined, route: RpcRoute): AdmitCall {
  return (call) => {
    const charge = (served: ServedHandler) => served.chargeArrival('GRPC', peerAddress(call));
    const decode = () => route.toCore(call.request.decode());
    let named: RoutedCall | undefined;
    try {
      named = router ? router.byMetadata(call.metadata) : { handler };
    } catch (error) {
      return failCharged(charge(handler), error);
    }
    if (named) {
      const known = named;
      const charged = charge(known.handler);
      return after(charged, () => ({ ...known, coreRequest: decode(), addressCharged: charged !== undefined }));
    }
    let coreRequest: unknown;
    try {
      coreRequest = decode();
    } catch (error) {
      return failCharged(charge(handler), error);
    }
    const routed = (router as CallRouter).byTenant(requestTenant(coreRequest));
    const charged = charge(routed.handler);
    return after(charged, () => ({ ...routed, coreRequest, addressCharged: charged !== undefined }));
  };
}

/** `next()` once `charged` (when there is a charge) has passed. */
function after<T>(charged: Promise<void> | undefined, next: () => T): T | Promise<T> {
  return charged ? charged.then(next) : next();
}

/** Fails with `error` once the point is spent (or with the RateLimited error of the charge). */
function failCharged(charged: Promise<void> | undefined, error: unknown): never | Promise<never> {
  if (!charged) throw error;
  return charged.then(() => {
    throw error;
  });
}
