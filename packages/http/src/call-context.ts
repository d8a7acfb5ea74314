import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import {
  clientCertificateOf,
  requestLogger,
  type BindingName,
  type CallContext,
  type ClientCertificate,
  type Logger,
  type ProtocolVersion,
} from '@a2a-polyglot/core';
import { remoteAddressOf } from './client-address.js';
import type { HttpExchangeRequest } from './exchange.js';

/** Name of the query parameter the spec allows in place of the `A2A-Version` header (§3.2). */
export const VERSION_QUERY_PARAM = 'A2A-Version';

/** Extra inputs of {@link nodeCallContext}. */
export interface NodeCallContextOptions {
  /** Tenant bound in the request path (REST `/{tenant}/...`); wins over the request field. */
  readonly pathTenant?: string;
  /**
   * Gives the context's `signal`, called when somebody first reads it (see
   * {@link lazyRequestSignal}).
   */
  readonly signal?: () => AbortSignal;
  /** The generation of the codec that decoded the call (see `CallContext.wireVersion`). */
  readonly wireVersion?: ProtocolVersion;
  /** The binding's logger; the context gets its request logger (binding, request id). */
  readonly logger?: Logger;
  /** The binding spent the request's address point on arrival (see `CallContext.addressCharged`). */
  readonly addressCharged?: boolean;
}

/**
 * A core {@link CallContext} from a node:http request: headers become service parameters.
 * When the `A2A-Version` header is absent, the `A2A-Version` query parameter fills it in:
 * the spec allows the query form for clients that cannot set headers (browsers' EventSource).
 *
 * Headers are read from `req.headers` on demand (node already lower-cases their names), and
 * the abort signal is made only when somebody reads it: a call answered at once needs
 * neither a header copy nor an AbortController.
 */
export function nodeCallContext(binding: BindingName, req: IncomingMessage, options: NodeCallContextOptions = {}): CallContext {
  // Only the headers and the URL are captured, not the request: a context that outlives its
  // call a little (until the next full GC) must not keep the request, its response and their
  // buffers alive with it.
  const { headers, url } = req;
  const signal = options.signal;
  // Absent on hand-built requests (tests, adapters from other servers): no address then.
  const socket = req.socket as Socket | null | undefined;
  const ctx: CallContext = {
    binding,
    pathTenant: options.pathTenant,
    wireVersion: options.wireVersion,
    remoteAddress: remoteAddressOf(req),
    addressCharged: options.addressCharged,
    clientCertificate: socket ? verifiedClientCertificate(socket) : undefined,
    get signal(): AbortSignal | undefined {
      return signal?.();
    },
    header(name: string): string | undefined {
      const key = name.toLowerCase();
      const value = headers[key];
      if (value !== undefined) return Array.isArray(value) ? value.join(',') : value;
      return key === 'a2a-version' ? versionFromQuery(url) : undefined;
    },
  };
  const callLogger = options.logger && requestLogger(options.logger, binding, (name) => ctx.header(name));
  if (callLogger) ctx.logger = callLogger;
  return ctx;
}

/**
 * The client certificate of a TLS socket whose handshake verified it against the listener's
 * CA (mutual TLS); undefined on plain sockets and unverified peers.
 */
export function verifiedClientCertificate(socket: Socket): ClientCertificate | undefined {
  // `encrypted` marks a node:tls TLSSocket; checked instead of `instanceof TLSSocket` so this
  // module has no runtime node:tls import (the fetch adapter shares it and must load in Workers).
  const tls = socket as Partial<TLSSocket>;
  if (tls.encrypted !== true || tls.authorized !== true || typeof tls.getPeerCertificate !== 'function') return undefined;
  return clientCertificateOf(tls.getPeerCertificate());
}

function versionFromQuery(url: string | undefined): string | undefined {
  const q = url?.indexOf('?') ?? -1;
  if (url === undefined || q < 0) return undefined;
  return versionFromParams(new URLSearchParams(url.slice(q + 1)));
}

function versionFromParams(params: URLSearchParams): string | undefined {
  return params.get(VERSION_QUERY_PARAM) ?? params.get(VERSION_QUERY_PARAM.toLowerCase()) ?? undefined;
}

/**
 * {@link nodeCallContext} over the universal request (see `HttpExchangeRequest`): the same
 * context from any runtime. Only the request's `header` and `query` readers are kept (not the
 * request), so a context that outlives its call keeps no runtime request alive.
 */
export function exchangeCallContext(binding: BindingName, req: HttpExchangeRequest, options: NodeCallContextOptions = {}): CallContext {
  return new ExchangeCallContext(binding, req, options);
}

/**
 * {@link exchangeCallContext}: its readers on the prototype, so a call's context is one object
 * (an object literal would make its `header` and `signal` closures anew on every call).
 */
class ExchangeCallContext implements CallContext {
  readonly binding: BindingName;
  readonly pathTenant: string | undefined;
  readonly wireVersion: ProtocolVersion | undefined;
  readonly remoteAddress: string | undefined;
  readonly addressCharged: boolean | undefined;
  readonly clientCertificate: ClientCertificate | undefined;
  activatedExtensions?: readonly string[];
  logger?: Logger;
  // The exchange's readers, not the exchange: the context keeps no runtime request alive.
  private readonly readHeader: HttpExchangeRequest['header'];
  private readonly readQuery: HttpExchangeRequest['query'];
  private readonly readSignal: (() => AbortSignal) | undefined;

  constructor(binding: BindingName, req: HttpExchangeRequest, options: NodeCallContextOptions) {
    this.binding = binding;
    this.pathTenant = options.pathTenant;
    this.wireVersion = options.wireVersion;
    this.remoteAddress = req.remoteAddress;
    this.addressCharged = options.addressCharged;
    this.clientCertificate = req.clientCertificate?.();
    this.readHeader = req.header;
    this.readQuery = req.query;
    this.readSignal = options.signal;
    // The request id is a plain header (never the query's A2A-Version): read directly.
    const callLogger = options.logger && requestLogger(options.logger, binding, req.header);
    if (callLogger) this.logger = callLogger;
  }

  get signal(): AbortSignal | undefined {
    return this.readSignal?.();
  }

  header(name: string): string | undefined {
    const key = name.toLowerCase();
    const value = this.readHeader(key);
    if (value !== undefined) return value;
    return key === 'a2a-version' ? versionFromParams(this.readQuery()) : undefined;
  }
}

/** The `A2A-Version` of a request: its header, else its query parameter (see {@link VERSION_QUERY_PARAM}). */
export function exchangeVersion(req: HttpExchangeRequest): string | undefined {
  return req.header('a2a-version') ?? versionFromParams(req.query());
}
