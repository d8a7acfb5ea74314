import type { LookupFunction } from 'node:net';
import type { WebhookNetwork, WebhookResolver, WebhookTarget, WebhookTransport } from '@a2a-polyglot/core';

/**
 * The Node side of webhook delivery: the system resolver and a node:http(s) POST to the
 * checked address, so the core's push sender gets DNS pinning where node:http exists. Here,
 * not in the core, because the core runs on every runtime (its default is `fetch`, which
 * cannot choose the address it connects to). node:http rather than `fetch` on Node: Node's
 * built-in fetch offers no way to choose the address (that needs undici's Agent, not a
 * dependency here); node:http takes a `lookup` per request and never follows redirects.
 *
 * The Node built-ins are fetched with `process.getBuiltinModule` when a webhook is called,
 * not imported: this package's entry point is also bundled for fetch runtimes (Workers), and
 * a bundler fails on any `node:` import it can reach.
 */
function builtins() {
  const get = globalThis.process?.getBuiltinModule;
  if (!get) throw new Error('pinned webhook delivery needs Node.js 20.16 or later (process.getBuiltinModule)');
  return { http: get('node:http'), https: get('node:https'), dns: get('node:dns/promises') };
}

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), every answer in the order given. */
export const systemResolver: WebhookResolver = (hostname) => builtins().dns.lookup(hostname, { all: true, verbatim: true });

/**
 * POSTs over node:http(s) to exactly `target.address`. The URL's host name stays the request's
 * host, so the `Host` header, TLS SNI and certificate verification all use the name, while
 * the `lookup` hook hands the socket the checked address instead of resolving again. No
 * agent: a pooled keep-alive socket is keyed by host and port, not by address, and could be
 * reused by a later delivery whose check gave another answer or ran under another policy.
 * Needs a target with an address (a sender given {@link systemResolver}, or an IP literal).
 */
export const pinnedHttpTransport: WebhookTransport = (target, post) =>
  new Promise<number>((resolve, reject) => {
    if (target.address === undefined) throw new Error('the pinned webhook transport needs a resolved address: give the sender a resolver');
    const { http, https } = builtins();
    const request = (target.url.protocol === 'https:' ? https : http).request(
      target.url,
      {
        method: 'POST',
        headers: { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) },
        agent: false,
        lookup: pinnedLookup(target.address, target.family),
        signal: AbortSignal.timeout(post.timeoutMs),
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end(post.body);
  });

/**
 * The webhook network of a Node deployment: {@link systemResolver} and {@link pinnedHttpTransport},
 * so every attempt resolves once, checks every answer and connects to the first (against DNS
 * rebinding). The node:http entry points of `@a2a-polyglot/server` offer it to the handlers they
 * serve (`RequestHandler.useWebhookNetwork`); pass it as `webhookNetwork` to be explicit.
 */
export const PINNED_WEBHOOK_NETWORK: WebhookNetwork = { resolve: systemResolver, transport: pinnedHttpTransport };

/** A `lookup` that answers the checked address whatever it is asked (net asks with `all` when it races families). */
function pinnedLookup(address: string, family: WebhookTarget['family']): LookupFunction {
  const checked = { address, family: family ?? (address.includes(':') ? 6 : 4) };
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [checked]);
    else callback(null, checked.address, checked.family);
  };
}
