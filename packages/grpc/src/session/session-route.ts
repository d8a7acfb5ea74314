import type { ServedHandler } from '@a2a-polyglot/core';
import type { Metadata } from '@grpc/grpc-js';
import { type CallRouter, type RoutedCall, requestTenant } from '../agent-router.js';
import type { SessionOperation } from './dispatch.js';

/** Picks the agent (and the tenant it sees) of one operation of a session. */
export type RouteOperation = (operation: SessionOperation) => RoutedCall;

/**
 * The routing of one session, decided when it opens, so that a session routes as the standard
 * service routes each call (one {@link CallRouter} for both):
 * - no `router`: every operation goes to `root`;
 * - metadata `a2a-agent: <id>` (the session's metadata, the same for all its operations): every
 *   operation goes to that agent. An unknown id throws the router's A2AError (INVALID_ARGUMENT),
 *   so the session is refused before any operation runs;
 * - otherwise each operation is routed by its own request's `tenant` (`byTenant`: a routable
 *   agent's id is consumed, anything else goes to `root` unchanged).
 * Each operation's address and identity points are then spent on the routed agent by the
 * core's preamble, as for every session operation.
 */
export function sessionRoute(root: ServedHandler, router: CallRouter | undefined, metadata: Metadata): RouteOperation {
  if (!router) {
    const rooted: RoutedCall = { handler: root };
    return () => rooted;
  }
  const named = router.byMetadata(metadata);
  if (named) return () => named;
  return (operation) => router.byTenant(requestTenant(operationRequest(operation)));
}

/** The request message an operation carries (undefined for none, or for `unsubscribe`). */
function operationRequest(operation: SessionOperation): unknown {
  switch (operation.$case) {
    case 'send':
    case 'subscribe':
      return operation.value.request;
    case 'unsubscribe':
      return undefined;
    default:
      return operation.value;
  }
}
