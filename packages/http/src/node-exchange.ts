import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ClientCertificate, Logger } from '@a2a-polyglot/core';
import { allowManyListeners, type LazyRequestSignal, lazyRequestSignal } from './abort-signal.js';
import { verifiedClientCertificate } from './call-context.js';
import { remoteAddressOf } from './client-address.js';
import type { HttpExchangeRequest, HttpExchangeResult } from './exchange.js';
import { readBodyText, readJsonBody } from './read-body.js';
import { NodeSseSink } from './node-sse-sink.js';
import { withPresetHeaders } from './preset-headers.js';
import { deliverSse, type SseDeliveryOptions } from './sse-delivery.js';

/**
 * The node:http adapter of the universal request: headers read from `req.headers` on demand
 * (node lower-cases their names), the query parsed when asked, the body read with the limit by
 * `readBodyText` / `readJsonBody` (which also take a body `express.json()` already parsed), and
 * the abort signal made on first use from the response's `close` (see `lazyRequestSignal`).
 */
export function nodeExchangeRequest(req: IncomingMessage, res: ServerResponse): HttpExchangeRequest {
  return new NodeExchange(req, res);
}

/** {@link nodeExchangeRequest}: the body and certificate readers are methods (no closures per request). */
class NodeExchange implements HttpExchangeRequest {
  readonly method: string;
  readonly header: HttpExchangeRequest['header'];
  readonly query: HttpExchangeRequest['query'];
  readonly signal: LazyRequestSignal;
  readonly release: () => void;
  readonly remoteAddress: string | undefined;

  constructor(
    private readonly req: IncomingMessage,
    res: ServerResponse,
  ) {
    this.method = req.method ?? '';
    const readers = headerReaders(req.headers, req.url);
    this.header = readers.header;
    this.query = readers.query;
    this.signal = lazyRequestSignal(req, res);
    this.release = this.signal.release;
    this.remoteAddress = remoteAddressOf(req);
  }

  readBody(maxBytes: number): Promise<string> {
    return readBodyText(this.req, maxBytes);
  }

  readJson(maxBytes: number): Promise<unknown> {
    return readJsonBody(this.req, maxBytes);
  }

  clientCertificate(): ClientCertificate | undefined {
    // Absent on hand-built requests (tests, adapters from other servers): no certificate then.
    const socket = this.req.socket as Socket | null | undefined;
    return socket ? verifiedClientCertificate(socket) : undefined;
  }
}

/**
 * The header and query readers, made in a scope of their own: closures of one scope share what
 * they capture, so readers made beside `readBody` would keep the request (and its response
 * and socket buffers) alive in every call context that keeps them. These see the headers and
 * the URL only.
 */
function headerReaders(headers: IncomingHttpHeaders, url: string | undefined): Pick<HttpExchangeRequest, 'header' | 'query'> {
  let params: URLSearchParams | undefined;
  return {
    header: (name) => {
      const value = headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(',') : value;
    },
    query: () => {
      if (params) return params;
      const q = url?.indexOf('?') ?? -1;
      params = new URLSearchParams(url === undefined || q < 0 ? '' : url.slice(q + 1));
      return params;
    },
  };
}

/**
 * A binding over the universal request (its extra arguments, such as REST's relative path,
 * passed through) as a node:http handler: the request read by {@link nodeExchangeRequest}, the
 * answer written by {@link writeNodeResult}. A failure after the answer started drops the
 * connection; one before it is answered with `fallback()` (the binding's own 500). Never
 * rejects. One adapter for every binding, so none of them imports node:http.
 */
export function nodeHttpHandler<A extends unknown[]>(
  serve: (req: HttpExchangeRequest, ...args: A) => Promise<HttpExchangeResult>,
  options: NodeSseOptions & { readonly logger: Logger; readonly what: string; readonly fallback: () => HttpExchangeResult },
): (req: IncomingMessage, res: ServerResponse, ...args: A) => Promise<void> {
  const sse: NodeSseOptions = { heartbeatMs: options.heartbeatMs, stallTimeoutMs: options.stallTimeoutMs, shutdownSignal: options.shutdownSignal };
  // Never throws, so the handler never rejects (listeners call it without a catch).
  const failed = (res: ServerResponse, error: unknown): void => {
    try {
      // Only a bug gets here; answer without internals if we still can.
      options.logger.error({ err: error }, `${options.what} failed`);
      if (!res.headersSent) writeNodeResult(res, options.fallback());
      else res.destroy();
    } catch {
      res.destroy();
    }
  };
  return async (req, res, ...args) => {
    try {
      const written = writeNodeResult(res, await serve(nodeExchangeRequest(req, res), ...args), sse);
      // A stream is returned, not awaited: an idle stream then keeps no suspended frame (with
      // the request and response in it) here, only the reaction that reports a failure.
      if (written) return streamEnd(written, res, failed);
    } catch (error) {
      failed(res, error);
    }
  };
}

/** `written` with its failure handed to `failed` (in a scope of its own: the reaction lives as long as the stream). */
function streamEnd(written: Promise<void>, res: ServerResponse, failed: (res: ServerResponse, error: unknown) => void): Promise<void> {
  return written.then(undefined, (error: unknown) => failed(res, error));
}

/** SSE settings of {@link writeNodeResult}. */
export type NodeSseOptions = SseDeliveryOptions;

/**
 * Writes a binding's answer to a node:http response: a body with `content-type` and
 * `content-length` (nothing when the client is gone or the headers are already sent), or an
 * SSE stream through `NodeSseSink` and `deliverSse` (backpressure, heartbeats, stall
 * timeout, end on disconnect or shutdown). Resolves when the answer is written (a stream:
 * when it ended). Never rejects for a stream.
 */
export function writeNodeResult(res: ServerResponse, result: HttpExchangeResult, options: NodeSseOptions = {}): Promise<void> | undefined {
  if (result.kind === 'body') {
    if (res.headersSent || res.destroyed) return undefined;
    const { body } = result;
    if (body === '') {
      res.writeHead(result.status, withPresetHeaders(res, result.headers));
      res.end();
      return undefined;
    }
    // One fresh object (Object.assign: on Node 20's V8, adding members to an object made by a
    // spread takes a slow path) given to writeHead, which sets no header store of its own when
    // nothing was set before; node joins a string body to the head it has not sent yet, so
    // head and body go out in one write.
    const all: Record<string, string | number> = Object.assign({}, withPresetHeaders(res, result.headers));
    all['content-type'] = result.contentType ?? 'application/json';
    all['content-length'] = Buffer.byteLength(body);
    res.writeHead(result.status, all);
    res.end(body);
    return undefined;
  }
  if (res.destroyed) {
    result.stream.close();
    return undefined;
  }
  const { shutdownSignal } = options;
  // A long-lived signal with one listener per open stream.
  if (shutdownSignal) allowManyListeners(shutdownSignal);
  const sink = new NodeSseSink(res, result.headers);
  // Returned, not awaited: an idle stream then keeps no suspended frame of its own here.
  return deliverSse(sink, result, { ...options, onStall: () => sink.destroy() });
}
