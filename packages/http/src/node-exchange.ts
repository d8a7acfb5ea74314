import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '@a2a-polyglot/core';
import { lazyRequestSignal } from './abort-signal.js';
import { verifiedClientCertificate } from './call-context.js';
import { remoteAddressOf } from './client-address.js';
import type { HttpExchangeRequest, HttpExchangeResult } from './exchange.js';
import { pipeEventStream } from './pipe-event-stream.js';
import { readBodyText, readJsonBody } from './read-body.js';
import { SseWriter } from './sse-writer.js';

/**
 * The node:http adapter of the universal request: headers read from `req.headers` on demand
 * (node lower-cases their names), the query parsed when asked, the body read with the limit by
 * `readBodyText` / `readJsonBody` (which also take a body `express.json()` already parsed), and
 * the abort signal made on first use from the response's `close` (see `lazyRequestSignal`).
 */
export function nodeExchangeRequest(req: IncomingMessage, res: ServerResponse): HttpExchangeRequest {
  const { headers, url } = req;
  const signal = lazyRequestSignal(req, res);
  let params: URLSearchParams | undefined;
  // (`header` and `query` close over the headers and URL only: a call context keeps them, not the request.)
  return {
    method: req.method ?? '',
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
    readBody: (maxBytes) => readBodyText(req, maxBytes),
    readJson: (maxBytes) => readJsonBody(req, maxBytes),
    signal,
    release: signal.release,
    remoteAddress: remoteAddressOf(req),
    clientCertificate: () => {
      // Absent on hand-built requests (tests, adapters from other servers): no certificate then.
      const socket = req.socket as Socket | null | undefined;
      return socket ? verifiedClientCertificate(socket) : undefined;
    },
  };
}

/** SSE settings of {@link writeNodeResult}. */
export interface NodeSseOptions {
  readonly heartbeatMs?: number;
  readonly stallTimeoutMs?: number;
  readonly shutdownSignal?: AbortSignal;
}

/**
 * Writes a binding's answer to a node:http response: a body with `content-type` and
 * `content-length` (nothing when the client is gone or the headers are already sent), or an
 * SSE stream through `SseWriter` and `pipeEventStream` (backpressure, heartbeats, stall
 * timeout, end on disconnect or shutdown). Resolves when the answer is written (a stream:
 * when it ended). Never rejects for a stream.
 */
export function writeNodeResult(res: ServerResponse, result: HttpExchangeResult, options: NodeSseOptions = {}): Promise<void> | undefined {
  if (result.kind === 'body') {
    if (res.headersSent || res.destroyed) return undefined;
    const { body } = result;
    if (body === '') {
      res.writeHead(result.status, result.headers);
      res.end();
      return undefined;
    }
    const all: Record<string, string | number> = { ...result.headers };
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
  const logger: Logger = result.logger;
  const sse = new SseWriter(res, {
    heartbeatMs: options.heartbeatMs,
    stallTimeoutMs: options.stallTimeoutMs,
    onStall: () => logger.warn({ stallTimeoutMs: options.stallTimeoutMs }, 'SSE stream ended: the client stopped reading'),
    headers: result.headers,
  });
  // Returned, not awaited: an idle stream then keeps no suspended frame of its own here.
  return pipeEventStream(result.stream, sse, {
    encode: result.encode,
    onError: (error, writer) => writer.raw(result.errorFrame(error)),
    signal: result.signal,
    shutdownSignal: options.shutdownSignal,
    logger,
  });
}
