import { A2AError, A2AErrorCode, type Logger, type ServedHandler, silentLogger } from '@a2a-polyglot/core';
import { fetchExchangeRequest, fetchResponse, type HttpExchangeResult, jsonResult, responseMediaTypeOf, routingPath } from '@a2a-polyglot/http';
import { createJsonRpcExchangeHandler } from '@a2a-polyglot/jsonrpc';
import type { AgentInterface } from '@a2a-polyglot/model';
import { createRestExchangeHandler, restError } from '@a2a-polyglot/rest';
import { agentCardAnswer, type CardCompat, cardPaths, type CardSource } from './agent-card.js';
import { CardClock } from './card-clock.js';
import { bindingSettings, normalizeBasePath, normalizeMountPath } from './options.js';

/** Settings of {@link createA2AFetchHandler}; only `handler` is required. */
export interface A2AFetchHandlerOptions {
  readonly handler: ServedHandler;
  /** Prefix of the A2A endpoints, default `/a2a`: JSON-RPC at `${basePath}/rpc`, REST under `basePath`. */
  readonly basePath?: string;
  /**
   * The path the app mounts the handler at (`/agent` for Hono's `app.all('/agent/*', …)`),
   * default `''`. Requests keep it in their URL; every route is served under it and the card's
   * URLs include it.
   */
  readonly mountPath?: string;
  /** Public origin (and optional path) the card's URLs are built from; default the request URL's origin. */
  readonly publicBaseUrl?: string;
  /** Largest accepted request body. Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /** Idle time before an SSE heartbeat comment. Default 15000; 0 disables. */
  readonly sseHeartbeatMs?: number;
  /** How long an SSE chunk may stay unread (no pull) before the stream ends. Default 30000; 0 disables. */
  readonly sseStallTimeoutMs?: number;
  /** Which card a discovery request without `A2A-Version` gets (see `A2AHttpOptions.cardCompat`). */
  readonly cardCompat?: CardCompat;
  /** Signs the served card (see `A2AHttpOptions.signCard`). */
  readonly signCard?: CardSource['signCard'];
  /** Interfaces served elsewhere to list in the card after JSON-RPC and REST. */
  readonly extraInterfaces?: (publicBaseUrl: string) => AgentInterface[];
  /** Aborting it ends all open SSE streams. */
  readonly shutdownSignal?: AbortSignal;
  readonly logger?: Logger;
}

/** A fetch-standard handler: Hono, Bun, Deno, Cloudflare Workers, or `fetch` itself. */
export type A2AFetchHandler = (request: Request) => Promise<Response>;

/**
 * The A2A agent as one fetch-standard handler (`Request → Response`), for runtimes without
 * node:http: the agent card (ETag, Last-Modified, conditional GET, as the node listener) at
 * `/.well-known/agent-card.json` (also under `basePath`, and the legacy paths), JSON-RPC at
 * `${basePath}/rpc`, REST under `basePath` (v1.0 and v0.3), SSE streams as a `ReadableStream`
 * pulled by the consumer, and a 404 JSON error for anything else, all under `mountPath`.
 * The bindings are the same code the node listener runs (over `HttpExchangeRequest`); only the
 * I/O differs. Not served here (yet): health, metrics, CORS and the browser Origin/Host checks
 * of the node listener. Never rejects.
 */
export function createA2AFetchHandler(options: A2AFetchHandlerOptions): A2AFetchHandler {
  const logger = options.logger ?? silentLogger;
  const basePath = normalizeBasePath(options.basePath);
  const mount = normalizeMountPath(options.mountPath);
  const cards = cardPaths(mount, basePath);
  const apiPath = `${mount}${basePath}`;
  const rpcPath = `${apiPath}/rpc`;
  const common = bindingSettings(options, logger);
  const sse = { heartbeatMs: common.heartbeatMs, stallTimeoutMs: common.sseStallTimeoutMs, shutdownSignal: options.shutdownSignal };
  const jsonRpc = createJsonRpcExchangeHandler(options.handler, common);
  const rest = createRestExchangeHandler(options.handler, common);
  const clock = new CardClock();
  const vary = options.publicBaseUrl ? 'A2A-Version' : 'Host, A2A-Version';

  async function route(request: Request): Promise<HttpExchangeResult> {
    const url = new URL(request.url);
    const path = routingPath(url.pathname);
    const req = fetchExchangeRequest(request);
    if (cards.has(path)) {
      const base = `${options.publicBaseUrl ? options.publicBaseUrl.replace(/\/+$/, '') : url.origin}${mount}`;
      const extra = options.extraInterfaces?.(base) ?? [];
      return agentCardAnswer(options, clock, req, { base, basePath, extra, vary });
    }
    if (path === rpcPath) return jsonRpc(req);
    if (path.startsWith(`${apiPath}/`)) return rest(req, path.slice(apiPath.length));
    const error = restError(new A2AError(A2AErrorCode.MethodNotFound, `Nothing is served at ${path}`));
    return jsonResult(404, error.body, responseMediaTypeOf(req.header('content-type'), req.header('accept'), 'application/json'));
  }

  return async (request) => {
    let result: HttpExchangeResult;
    try {
      result = await route(request);
    } catch (error) {
      logger.error({ err: error }, 'A2A fetch handler failed');
      result = jsonResult(500, restError(new A2AError(A2AErrorCode.Internal)).body);
    }
    const response = fetchResponse(result, sse);
    response.headers.set('x-content-type-options', 'nosniff');
    return response;
  };
}
