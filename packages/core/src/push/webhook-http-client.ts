import type { LookupFunction } from 'node:net';
import type { WebhookResolver, WebhookTarget } from './webhook-target.js';

/**
 * The push sender's only contact with the network, kept in this one file: the resolver and
 * the POST. node:http rather than `fetch`, because Node's built-in fetch offers no way to
 * choose the address it connects to (that needs undici's Agent, not a dependency here) and
 * it follows redirects unless told not to; node:http takes a `lookup` per request and never
 * follows redirects.
 *
 * The Node built-ins are fetched with `process.getBuiltinModule` when a webhook is called,
 * not imported: the core's entry point is also bundled for browsers (the client imports its
 * error types), and a bundler fails on any `node:` import it can reach.
 */
function builtins() {
  const get = globalThis.process?.getBuiltinModule;
  if (!get) throw new Error('webhook delivery needs Node.js 20.16 or later (process.getBuiltinModule)');
  return { http: get('node:http'), https: get('node:https'), dns: get('node:dns/promises') };
}

/** One webhook POST: what {@link WebhookTransport} sends. */
export interface WebhookPost {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
}

/**
 * Sends one POST to a checked {@link WebhookTarget} and resolves with the HTTP status (a 3xx
 * is returned, not followed). A seam so the sender's retry and refusal logic can be tested
 * without sockets.
 */
export type WebhookTransport = (target: WebhookTarget, post: WebhookPost) => Promise<number>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), every answer in the order given. */
export const systemResolver: WebhookResolver = (hostname) => builtins().dns.lookup(hostname, { all: true, verbatim: true });

/**
 * POSTs over node:http(s) to exactly `target.address`. The URL's host name stays the request's
 * host, so the `Host` header, TLS SNI and certificate verification all use the name, while
 * the `lookup` hook hands the socket the checked address instead of resolving again. No
 * agent: a pooled keep-alive socket is keyed by host and port, not by address, and could be
 * reused by a later delivery whose check gave another answer or ran under another policy.
 */
export const pinnedHttpTransport: WebhookTransport = (target, post) =>
  new Promise<number>((resolve, reject) => {
    const { http, https } = builtins();
    const request = (target.url.protocol === 'https:' ? https : http).request(
      target.url,
      {
        method: 'POST',
        headers: { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) },
        agent: false,
        lookup: pinnedLookup(target),
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

/** A `lookup` that answers the checked address whatever it is asked (net asks with `all` when it races families). */
function pinnedLookup(target: WebhookTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}
