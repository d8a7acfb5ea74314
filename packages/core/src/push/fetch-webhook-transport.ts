import type { WebhookNetwork, WebhookTransport } from './webhook-transport.js';

/**
 * POSTs with the runtime's global `fetch`, for runtimes without node:http (Cloudflare
 * Workers, Deno, Bun, browsers; Node too). `redirect: 'manual'`, so a 3xx comes back as the
 * answer instead of being followed to an address nobody checked; a browser hides a manual
 * redirect (an `opaqueredirect` response with status 0), reported as 300. The per-attempt
 * timeout is an `AbortSignal.timeout` covering the connection and the answer's headers; the
 * answer's body is discarded.
 *
 * **No DNS pinning**: `fetch` cannot be told which address to connect to, so the runtime
 * resolves the host name itself. The URL policy still holds (scheme, no credentials, no
 * private or loopback IP literal, no `localhost` name unless private networks are allowed),
 * but a host name whose DNS answers a private address is not caught. Where node:http is
 * available, `pinnedHttpTransport` of `@a2a-polyglot/http` closes that gap.
 */
export const fetchWebhookTransport: WebhookTransport = async (target, post) => {
  const response = await fetch(target.url, {
    method: 'POST',
    headers: post.headers,
    body: post.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(post.timeoutMs),
  });
  await response.body?.cancel().catch(() => undefined);
  return response.type === 'opaqueredirect' ? 300 : response.status;
};

/**
 * The core's default {@link WebhookNetwork}: {@link fetchWebhookTransport} without a resolver
 * (the URL policy only, no DNS pinning). A handler served by the node:http entry points of
 * `@a2a-polyglot/server` gets the pinned node:http network instead (`RequestHandler.useWebhookNetwork`).
 */
export const FETCH_WEBHOOK_NETWORK: WebhookNetwork = { transport: fetchWebhookTransport };
