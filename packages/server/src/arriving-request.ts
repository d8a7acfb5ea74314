import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { type ForwardedOrigin, forwardedOrigin, type HttpExchangeRequest } from '@a2a-polyglot/http';

/** Where a request arrived, as the runtime that received it knows it. */
export interface RequestArrival {
  /** The connection is TLS: the scheme of the public URL when no trusted proxy names one. */
  readonly secure: boolean;
  /** The `host:port` the request reached: the host of the public URL when the request names no valid one. */
  readonly localHost: string;
}

/**
 * What the checks in front of the routes read of a request (the browser access check, the
 * public base URL, the health, metrics and listing answers): the verb and headers of the
 * exchange seam, plus where it arrived, whatever runtime received it. Why a view of its own
 * and not a whole `HttpExchangeRequest`: on node:http the bindings make their own exchange,
 * and these checks run on every request before any binding; this one costs one object.
 */
export interface ArrivingRequest extends Pick<HttpExchangeRequest, 'method' | 'header'> {
  /**
   * The local address the connection arrived on (node:http); undefined where the runtime does
   * not tell (fetch runtimes), which the Host check treats as a network address.
   */
  readonly localAddress?: string;
  /** Read on demand: most requests never need it. */
  arrival(): RequestArrival;
  /**
   * What the proxy in front says the client asked for (`Forwarded`, `X-Forwarded-*`), read
   * only with `trustProxy`. Absent on fetch runtimes: their request URL and `Host` already are
   * the public ones, and the `Forwarded` parser needs node's `util`, which Workers lack.
   */
  forwarded?(): ForwardedOrigin;
}

/** The view of a node:http request: node lower-cases header names; repeated values are joined with `,`. */
export function nodeArrivingRequest(req: IncomingMessage): ArrivingRequest {
  return new NodeArrivingRequest(req);
}

/** {@link nodeArrivingRequest}: one object per request, its readers on the prototype. */
class NodeArrivingRequest implements ArrivingRequest {
  readonly method: string;

  constructor(private readonly req: IncomingMessage) {
    this.method = req.method ?? '';
  }

  get localAddress(): string {
    // A socket already gone has no local address: checked as loopback, as strictly as we can.
    return this.req.socket.localAddress ?? '127.0.0.1';
  }

  header(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value.join(',') : value;
  }

  arrival(): RequestArrival {
    const socket = this.req.socket;
    const address = this.localAddress;
    return {
      secure: (socket as TLSSocket).encrypted === true,
      localHost: `${address.includes(':') ? `[${address}]` : address}:${socket.localPort ?? 80}`,
    };
  }

  forwarded(): ForwardedOrigin {
    return forwardedOrigin((name) => this.header(name));
  }
}

/**
 * The view of a fetch-standard request. Its `Host` is the request URL's host: fetch runtimes
 * build the URL from the Host the client sent (Hono's node server, the Lambda adapter), or
 * hand the public URL over a connection of their own (workerd, Miniflare), so the URL is what
 * the client asked for. The URL's scheme; no local address (the runtime does not tell).
 */
export function fetchArrivingRequest(request: Request, url: URL): ArrivingRequest {
  const headers = request.headers;
  return {
    method: request.method.toUpperCase(),
    header: (name) => (name === 'host' ? url.host : (headers.get(name) ?? undefined)),
    arrival: () => ({ secure: url.protocol === 'https:', localHost: url.host }),
  };
}
