import { A2AError, A2AErrorCode, GRPC_METADATA, type ServedHandler } from '@a2a-polyglot/core';
import type { Metadata } from '@grpc/grpc-js';

/** Where one call goes: the agent's handler, and the tenant that agent sees when the router decided it. */
export interface RoutedCall {
  readonly handler: ServedHandler;
  /**
   * Set when the request's `tenant` addressed the agent: the tenant the agent's core sees
   * instead (`''`, the namespace its other bindings use). Undefined: the request's own tenant.
   */
  readonly tenant?: string;
}

/**
 * Picks the handler of one gRPC call from its metadata and the (decoded, v1.0) request's
 * `tenant`, so one gRPC port serves several agents (gRPC URLs carry no path to route on). In
 * two steps, so a call that names its agent in metadata is routed (and its address point
 * charged on that agent) before its request is decoded.
 */
export interface CallRouter {
  /**
   * The agent the call's metadata names, read before the request is decoded; undefined when
   * the metadata names none. Throws an A2AError when it names an agent not served here.
   */
  byMetadata(metadata: Metadata): RoutedCall | undefined;
  /** The agent of a call whose metadata names none, from its decoded request's tenant. */
  byTenant(requestTenant: string): RoutedCall;
}

/**
 * The router of a multi-agent gateway. In order:
 * 1. metadata `a2a-agent: <id>` names the agent outright (any generation; the only way for
 *    v0.3, whose requests have no tenant); an unknown id is INVALID_ARGUMENT, never another
 *    agent. The request's tenant is left alone, so the agent's own tenants still work.
 * 2. a request `tenant` equal to the id of a routable agent addresses that agent: what a v1.0
 *    client does by itself, since it copies the card interface's `tenant` into every request
 *    (spec: "an opaque string used for routing requests to a specific agent or tenant"). The
 *    tenant is consumed: the agent sees `''`, so its tasks are the ones its JSON-RPC, REST and
 *    WebSocket interfaces (tenant `''`) see.
 * 3. anything else goes to `root`, unchanged (its tenants keep meaning what they meant).
 *
 * `byMetadata` looks up every served agent (the default one included); `byTenant` only the
 * agents whose cards advertise their id as tenant, so the default agent's tenants stay its own.
 */
export function agentRouter(
  root: ServedHandler,
  lookup: { byMetadata(id: string): ServedHandler | undefined; byTenant(id: string): ServedHandler | undefined },
): CallRouter {
  return {
    byMetadata: (metadata) => {
      const named = metadata.get(GRPC_METADATA.agent)[0];
      if (named === undefined) return undefined;
      const id = typeof named === 'string' ? named.trim() : '';
      const handler = id === '' ? undefined : lookup.byMetadata(id);
      if (!handler) {
        throw new A2AError(A2AErrorCode.InvalidParams, `${GRPC_METADATA.agent} ${JSON.stringify(id)} names no agent served here`, {
          fieldViolations: [{ field: GRPC_METADATA.agent, description: 'no agent with this id' }],
        });
      }
      return { handler };
    },
    byTenant: (requestTenant) => {
      const byTenant = requestTenant === '' ? undefined : lookup.byTenant(requestTenant);
      return byTenant ? { handler: byTenant, tenant: '' } : { handler: root };
    },
  };
}

/**
 * The `tenant` field of a (decoded) core request, `''` when it has none: what
 * {@link CallRouter.byTenant} routes on, for the standard service and the session alike.
 */
export function requestTenant(coreRequest: unknown): string {
  if (typeof coreRequest !== 'object' || coreRequest === null || !('tenant' in coreRequest)) return '';
  return typeof coreRequest.tenant === 'string' ? coreRequest.tenant : '';
}
