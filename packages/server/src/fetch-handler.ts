import { A2AError, A2AErrorCode, silentLogger } from '@a2a-polyglot/core';
import { emptyResult, fetchExchangeRequest, fetchResponse, type HttpExchangeResult, jsonResult, responseMediaTypeOf, routingPath } from '@a2a-polyglot/http';
import { createJsonRpcExchangeHandler } from '@a2a-polyglot/jsonrpc';
import { createRestExchangeHandler, restError } from '@a2a-polyglot/rest';
import { agentCardAnswer, cardPaths, cardVary } from './agent-card.js';
import { type ArrivingRequest, fetchArrivingRequest } from './arriving-request.js';
import { CardClock } from './card-clock.js';
import { type A2AHttpOptions, bindingSettings, normalizeBasePath, normalizeMountPath, type ServiceListingSettings } from './options.js';
import { probeRoutes } from './probes.js';
import { publicBaseUrl } from './public-url.js';
import { requestGate } from './request-gate.js';
import { listingOptionsOf, serviceListings } from './service-listings.js';

/**
 * Settings of {@link createA2AFetchHandler}: the node listener's (`A2AHttpOptions`) that make
 * sense where there is no socket, plus the host's listings; only `handler` is required.
 * Where they differ on fetch runtimes:
 * - `mountPath` is the path the app mounts the handler at (`/agent` for Hono's
 *   `app.all('/agent/*', …)`): requests keep it in their URL, every route (the health probes,
 *   `/metrics` and the listings too) is served under it, and the card's URLs include it;
 * - `publicBaseUrl` defaults to the request's `Host` (the request URL's host when it has none);
 *   no `trustProxy`: a fetch runtime's request URL and `Host` already are the public ones;
 * - `sseStallTimeoutMs` bounds how long an SSE chunk may stay unread (the consumer does not pull);
 * - `allowedHosts`: a fetch runtime does not say which address a request arrived on, so the
 *   Host is checked only when `allowedHosts` is set (as on a node server reached over the network).
 */
export type A2AFetchHandlerOptions = Pick<
  A2AHttpOptions,
  | 'handler'
  | 'basePath'
  | 'mountPath'
  | 'publicBaseUrl'
  | 'maxBodyBytes'
  | 'sseHeartbeatMs'
  | 'sseStallTimeoutMs'
  | 'cors'
  | 'allowedHosts'
  | 'cardCompat'
  | 'signCard'
  | 'extraInterfaces'
  | 'readiness'
  | 'metrics'
  | 'shutdownSignal'
  | 'logger'
> &
  ServiceListingSettings;

/** A fetch-standard handler: Hono, Bun, Deno, Cloudflare Workers, or `fetch` itself. */
export type A2AFetchHandler = (request: Request) => Promise<Response>;

/**
 * The A2A agent as one fetch-standard handler (`Request → Response`), for runtimes without
 * node:http, serving what the node listener serves, by the same code (runtime-free answers over
 * the exchange seam; only the I/O differs), all under `mountPath`:
 * - the agent card (ETag, Last-Modified, conditional GET) at `/.well-known/agent-card.json`
 *   (also under `basePath`, and the legacy paths), JSON-RPC at `${basePath}/rpc`, REST under
 *   `basePath` (v1.0 and v0.3), SSE streams as a `ReadableStream` pulled by the consumer;
 * - `/healthz`, `/readyz` and (with `metrics`) `/metrics`;
 * - the agent index at `agentIndexPath` and the RFC 9727 API catalog (`apiCatalog`), listing
 *   this one agent;
 * - the browser Host and Origin checks (403 in the binding's terms), the CORS headers and
 *   preflights (`cors`), `X-Content-Type-Options: nosniff`;
 * - a HEAD gets the GET's status and headers without the body; anything else a 404 JSON error.
 * Never rejects.
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
  const vary = cardVary(options);
  const gate = requestGate(options);
  const probes = probeRoutes(options);
  // The listings name this one agent; the mount path is the host's root, in front of every URL.
  const listed = { ...options, mountPath: '' };
  const listings = serviceListings({ root: listed, listed: () => [listed], prefix: mount }, listingOptionsOf(options));

  /** A path under the mount as the server root sees it (`/healthz`), undefined outside the mount. */
  const local = (path: string) => (mount === '' ? path : path === mount ? '/' : path.startsWith(`${mount}/`) ? path.slice(mount.length) : undefined);

  async function route(request: Request, view: ArrivingRequest, path: string): Promise<HttpExchangeResult> {
    const isCard = cards.has(path);
    const gated = gate(view, { card: isCard, jsonRpc: path === rpcPath });
    const result = gated.answer ?? (await serve(request, view, path, isCard));
    // The gate's headers under the answer's own, as the node listener's `setHeader` before `writeHead`.
    return { ...result, headers: { ...gated.headers, ...result.headers } };
  }

  async function serve(request: Request, view: ArrivingRequest, path: string, isCard: boolean): Promise<HttpExchangeResult> {
    if (isCard) {
      const base = `${publicBaseUrl(view, options.publicBaseUrl, false)}${mount}`;
      const extra = options.extraInterfaces?.(base) ?? [];
      return agentCardAnswer(options, clock, view, { base, basePath, extra, vary });
    }
    const under = local(path);
    const probed = under !== undefined && probes.paths.has(under) ? await probes.answer(view, under) : undefined;
    if (probed) return probed;
    const req = fetchExchangeRequest(request);
    if (path === rpcPath) return jsonRpc(req);
    if (path.startsWith(`${apiPath}/`)) return rest(req, path.slice(apiPath.length));
    const error = restError(new A2AError(A2AErrorCode.MethodNotFound, `Nothing is served at ${path}`));
    return jsonResult(404, error.body, responseMediaTypeOf(req.header('content-type'), req.header('accept'), 'application/json'));
  }

  async function answer(request: Request): Promise<HttpExchangeResult> {
    const url = new URL(request.url);
    const path = routingPath(url.pathname);
    const view = fetchArrivingRequest(request, url);
    const under = listings ? local(path) : undefined;
    // Before the gate, as on node: the listings run their own checks (any Origin may read them).
    const listing = under === undefined ? undefined : listings?.(view, under);
    return listing ?? route(request, view, path);
  }

  return async (request) => {
    let result: HttpExchangeResult;
    try {
      result = withoutBodyForHead(request.method, await answer(request));
    } catch (error) {
      logger.error({ err: error }, 'A2A fetch handler failed');
      result = jsonResult(500, restError(new A2AError(A2AErrorCode.Internal)).body);
    }
    const response = fetchResponse(result, sse);
    response.headers.set('x-content-type-options', 'nosniff');
    return response;
  };
}

/**
 * A HEAD's answer: the GET's status and headers, with the body's `content-type` and
 * `content-length` and no body, as node:http answers a HEAD.
 */
function withoutBodyForHead(method: string, result: HttpExchangeResult): HttpExchangeResult {
  if (method.toUpperCase() !== 'HEAD' || result.kind !== 'body' || result.body === '') return result;
  const length = String(new TextEncoder().encode(result.body).byteLength);
  return emptyResult(result.status, { ...result.headers, 'content-type': result.contentType ?? 'application/json', 'content-length': length });
}
