/**
 * The client address behind reverse proxies: which hop of `X-Forwarded-For` (or of the
 * `for=` list of RFC 7239 `Forwarded`) is the client, given the proxies the operator trusts.
 * Without trusted proxies every client behind one proxy has the proxy's address, and so one
 * per-address rate budget between them.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import parseForwarded from 'forwarded-parse';
import proxyaddr from 'proxy-addr';

/**
 * The proxies whose forwarded header is believed, in Express's `trust proxy` terms: a list of
 * addresses, CIDR ranges (`10.0.0.0/8`, `fd00::/8`) and the names `loopback`, `linklocal`,
 * `uniquelocal` (proxy-addr's), or a hop count (`1`: the peer is the one proxy, whatever its
 * address). Empty list or 0: no proxy is trusted and the socket's peer is the client.
 */
export type TrustedProxies = readonly string[] | number;

/** Which header the trusted proxies write: de-facto `X-Forwarded-For` or RFC 7239 `Forwarded`. */
export type ForwardedHeader = 'x-forwarded-for' | 'forwarded';

/** The header a proxy setting reads unless told otherwise: what most proxies write. */
export const DEFAULT_FORWARDED_HEADER: ForwardedHeader = 'x-forwarded-for';

/** How {@link clientAddressResolver} finds the client. */
export interface ClientAddressOptions {
  readonly trustedProxies?: TrustedProxies;
  /**
   * The one header read (default `x-forwarded-for`). Only one: a client can send either
   * header itself, and a proxy appends only to the one it writes, so reading the other would
   * let a client choose its own address.
   */
  readonly header?: ForwardedHeader;
}

/** The client address of a request, as the rate limits count it. */
export type ClientAddressResolver = (req: IncomingMessage) => string | undefined;

/** Whether hop `i` (0: the socket's peer) at `address` is a trusted proxy. */
type Trust = (address: string, i: number) => boolean;

/**
 * A resolver for `options`, or undefined when no proxy is trusted (the socket's peer is the
 * client: nothing to resolve). Throws TypeError on an address or range proxy-addr cannot read,
 * so a bad setting fails at startup.
 */
export function clientAddressResolver(options: ClientAddressOptions): ClientAddressResolver | undefined {
  const trusted = options.trustedProxies;
  if (trusted === undefined || trusted === 0 || (Array.isArray(trusted) && trusted.length === 0)) return undefined;
  const hops = typeof trusted === 'number' ? trusted : undefined;
  // A hop count trusts the first `hops` hops whatever their address, as Express does.
  const trust: Trust = hops !== undefined ? (_address, i) => i < hops : proxyaddr.compile([...(trusted as readonly string[])]);
  if ((options.header ?? DEFAULT_FORWARDED_HEADER) === 'x-forwarded-for') {
    return (req) => (peerOf(req) === undefined ? undefined : proxyaddr(req, trust));
  }
  return (req) => {
    const peer = peerOf(req);
    return peer === undefined ? undefined : closestUntrusted([peer, ...forwardedFor(req.headers.forwarded).reverse()], trust);
  };
}

/**
 * Checks a trusted-proxies setting the way {@link clientAddressResolver} reads it: the
 * entries proxy-addr cannot read, empty when all are fine.
 */
export function invalidProxyEntries(trusted: readonly string[]): string[] {
  return trusted.filter((entry) => {
    try {
      proxyaddr.compile(entry);
      return false;
    } catch {
      return true;
    }
  });
}

const resolved = new WeakMap<IncomingMessage, string | undefined>();

/**
 * Resolves the client address of `req` once, as it arrives, for {@link remoteAddressOf} (and
 * so every binding's address budget) to read. A server with trusted proxies calls it on each
 * request and WebSocket upgrade before dispatching.
 */
export function recordClientAddress(req: IncomingMessage, resolve: ClientAddressResolver): void {
  resolved.set(req, resolve(req));
}

/**
 * The client address of a node:http request, the one per-address rate limits count: the one
 * {@link recordClientAddress} resolved behind trusted proxies, else the socket's peer
 * (undefined on hand-built requests without a socket: tests, adapters).
 */
export function remoteAddressOf(req: IncomingMessage): string | undefined {
  if (resolved.has(req)) return resolved.get(req);
  return peerOf(req);
}

function peerOf(req: IncomingMessage): string | undefined {
  return (req.socket as Socket | null | undefined)?.remoteAddress;
}

/**
 * The hop walk of proxy-addr (`chain[0]` is the peer, then the forwarded addresses from the
 * nearest): the first hop that is not a trusted proxy is the client; when all are, the
 * farthest. Written here because proxy-addr walks only `X-Forwarded-For`.
 */
function closestUntrusted(chain: readonly [string, ...string[]], trust: Trust): string {
  let i = 0;
  for (const hop of chain) {
    if (i === chain.length - 1 || !trust(hop, i)) return hop;
    i++;
  }
  return chain[0];
}

/**
 * The `for=` nodes of a `Forwarded` header, from the client to the nearest proxy, without
 * port and IPv6 brackets (`[2001:db8::1]:4711` → `2001:db8::1`). A header that does not parse
 * gives none (the peer is then the client), as does an element without `for`: the chain
 * stops at the first gap, since what lies beyond it cannot be placed.
 */
function forwardedFor(header: string | undefined): string[] {
  if (!header) return [];
  let elements: Record<string, string>[];
  try {
    elements = parseForwarded(header);
  } catch {
    return [];
  }
  const nodes = elements.map((element) => (element.for === undefined ? undefined : nodeAddress(element.for)));
  const gap = nodes.lastIndexOf(undefined);
  return nodes.slice(gap + 1) as string[];
}

/** RFC 7239 §6 node: `ip`, `ip:port`, `[ipv6]`, `[ipv6]:port`, `unknown` or `_obfuscated`. */
function nodeAddress(node: string): string {
  if (node.startsWith('[')) {
    const end = node.indexOf(']');
    return end > 0 ? node.slice(1, end) : node;
  }
  const colon = node.indexOf(':');
  return colon > 0 && colon === node.lastIndexOf(':') ? node.slice(0, colon) : node;
}
