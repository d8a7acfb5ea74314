import type { WebhookResolver, WebhookTarget } from './webhook-target.js';

/** One webhook POST: what {@link WebhookTransport} sends. */
export interface WebhookPost {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
}

/**
 * Sends one POST to a checked {@link WebhookTarget} and resolves with the HTTP status (a 3xx
 * is returned, not followed). The push sender's only contact with the network, a seam so the
 * sender's retry and refusal logic is written once for every runtime and tested without
 * sockets: the core's own is {@link fetchWebhookTransport}; the node:http one that connects to
 * the pinned address is `pinnedHttpTransport` of `@a2a-polyglot/http`.
 */
export type WebhookTransport = (target: WebhookTarget, post: WebhookPost) => Promise<number>;

/**
 * How the default push sender reaches webhooks: a transport, and the resolver whose answer it
 * connects to. With a resolver, every attempt resolves the host once, checks every answer
 * and the transport connects to the first (DNS pinning, against rebinding). Without one, the
 * host name is not resolved here: the URL policy is checked and the runtime resolves the name
 * when it connects, so a name that answers a private address is not refused (no DNS pinning).
 */
export interface WebhookNetwork {
  readonly transport: WebhookTransport;
  readonly resolve?: WebhookResolver;
}
