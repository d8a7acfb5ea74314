/**
 * What a binding needs from the handler it serves: the operations ({@link OperationHandler})
 * and the few members a wire reads besides them (the card, request strictness, the arrival
 * charge of the rate limiter, readiness). Bindings are typed against this interface, not the
 * `RequestHandler` class, so a binding can serve any implementation of the operations (a
 * test double, a proxy, a future handler) and reads as depending on a contract only.
 */
import type { AgentCard } from '@a2a-polyglot/model';
import type { BindingName } from './call-context.js';
import type { OperationHandler } from './operation-handler.js';
import type { InterceptedHandler } from './operation-interceptor.js';
import type { WebhookNetwork } from './push/webhook-transport.js';

export interface ServedHandler extends OperationHandler, InterceptedHandler {
  /** The public card the handler serves (its capabilities gate streaming, push and the extended card). */
  readonly card: AgentCard;
  /** Whether bindings reject unknown request members when they decode (see `decodeJsonRequest`). */
  readonly strictRequests: boolean;
  /** Whether the handler serves the draft A2A 1.1 (cards list 1.1 interfaces exactly then). */
  readonly experimental11: boolean;
  /** The public card, per request (discovery is never authenticated). */
  getAgentCard(): AgentCard;
  /** Spends the address point of a request on arrival, before it is read or decoded; undefined when no limit applies. */
  chargeArrival(binding: BindingName, remoteAddress: string | undefined): Promise<void> | undefined;
  /** True once shutdown began: bindings refuse new calls and health reports not ready. */
  readonly draining: boolean;
  /**
   * Offers the network the handler's default push sender should use (a handler without push,
   * or with its own sender, ignores it): how a node:http entry point gives DNS pinning to a
   * handler the runtime-neutral core built. Optional: a test double need not have it.
   */
  useWebhookNetwork?(network: WebhookNetwork): void;
}
