import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2AError, A2AErrorCode, silentLogger } from '@a2a-polyglot/core';
import { PINNED_WEBHOOK_NETWORK, presetHeaders, responseMediaType, routingPath, sendJson, writeNodeResult } from '@a2a-polyglot/http';
import { createJsonRpcHandler } from '@a2a-polyglot/jsonrpc';
import { createRestHandler, restError } from '@a2a-polyglot/rest';
import { agentCardAnswer, cardPaths as cardPathsOf, cardVary } from './agent-card.js';
import { type ArrivingRequest, nodeArrivingRequest } from './arriving-request.js';
import { CardClock } from './card-clock.js';
import { type A2AHttpOptions, aliasRoutes, bindingSettings, normalizeBasePath, normalizeMountPath } from './options.js';
import { probeRoutes } from './probes.js';
import { publicBaseUrl } from './public-url.js';
import { requestGate } from './request-gate.js';
import { websocketCardInterfaces } from './websocket.js';

/**
 * A node:http `request` listener, and an Express-style middleware: given `next`, it calls
 * `next()` for the paths it does not serve instead of answering 404.
 */
export type A2ARequestListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/**
 * One node:http listener for a whole A2A agent: the agent card at
 * `/.well-known/agent-card.json` (also under `basePath`, at the legacy
 * `/.well-known/agent.json` and at the last-resort `/agent.json`), JSON-RPC at `${basePath}/rpc`, REST under `basePath`, the
 * `/healthz`, `/readyz` and (when given a source) `/metrics` (root listener only), a mounted
 * agent's two `aliasPath` routes (JSON-RPC and card, see `aliasRoutes`), and a 404
 * error body for anything else. Every path is also served with one trailing slash
 * (`/a2a/rpc/`, `/a2a/tasks/`, the card paths): see `routingPath`. Usable with any
 * node:http(s) server.
 *
 * Mounted in a framework: as Express middleware (`app.use('/agent', listener)`) it routes on
 * the path Express leaves in `req.url`, builds card URLs with `req.baseUrl` (the mount path
 * Express stripped), reads a body `express.json()` already parsed, and calls `next()` for a
 * path it does not serve before writing anything, so later routes of the app answer. With
 * `extraRoutes` (root listener), every path goes through the listener's checks first, since
 * only running them tells which paths they serve. For Fastify see `a2aFastifyPlugin`.
 *
 * It never throws and never leaks internals: every failure is logged and answered with a
 * generic 500 if the response has not started, or the connection is dropped if it has.
 */
export function createA2ARequestListener(options: A2AHttpOptions): A2ARequestListener {
  const logger = options.logger ?? silentLogger;
  const basePath = normalizeBasePath(options.basePath);
  const mount = normalizeMountPath(options.mountPath);
  const alias = aliasRoutes(options);
  const cardPaths = cardPathsOf(mount, basePath);
  if (alias) cardPaths.add(alias.card);
  const apiPath = `${mount}${basePath}`;
  const rpcPath = `${apiPath}/rpc`;
  const isRpcPath = (path: string) => path === rpcPath || path === alias?.jsonRpc;
  const common = bindingSettings(options, logger);
  // On node:http, webhooks get DNS pinning unless the handler was given its own push network.
  options.handler.useWebhookNetwork?.(PINNED_WEBHOOK_NETWORK);
  const jsonRpc = createJsonRpcHandler(options.handler, common);
  const rest = createRestHandler(options.handler, common);
  const cardClock = new CardClock();
  const gate = requestGate(options);
  const probes = mount === '' ? probeRoutes(options) : undefined;
  const cardVaries = cardVary(options);

  /**
   * A JSON-RPC or REST path that nothing before the bindings may serve (no card, probe or
   * `extraRoutes` in front of it): its response is written by a binding only.
   */
  const isBindingPath = (path: string) =>
    (isRpcPath(path) || path.startsWith(`${apiPath}/`)) && !cardPaths.has(path) && probes?.paths.has(path) !== true && !(mount === '' && options.extraRoutes);

  /** Whether a path is served by the listener's fixed routes (everything but `extraRoutes`). */
  const owns = (path: string) => cardPaths.has(path) || isRpcPath(path) || path.startsWith(`${apiPath}/`) || probes?.paths.has(path) === true;
  const mayOwn = mount === '' && options.extraRoutes !== undefined;

  async function route(req: IncomingMessage, res: ServerResponse, path: string, next: ((error?: unknown) => void) | undefined): Promise<void> {
    const view = nodeArrivingRequest(req);
    const isCard = cardPaths.has(path);
    const gated = gate(view, { card: isCard, jsonRpc: isRpcPath(path) });
    const headers = gated.headers;
    if (!gated.answer && isBindingPath(path)) {
      // Only a binding writes this response: its answer carries the gate's headers (no header
      // store kept for the response's life, see presetHeaders).
      presetHeaders(res, headers);
      if (isRpcPath(path)) return void jsonRpc(req, res);
      return void rest(req, res, path.slice(apiPath.length));
    }
    // for…in, not Object.entries: no array per request on the hot path.
    for (const name in headers) {
      const value = headers[name];
      if (value !== undefined) res.setHeader(name, value);
    }
    if (gated.answer) return void writeNodeResult(res, gated.answer);
    if (isCard) return serveCard(view, req, res);
    const probed = probes?.paths.has(path) ? await probes.answer(view, path) : undefined;
    if (probed) return void writeNodeResult(res, probed);
    if (mount === '' && options.extraRoutes && (await options.extraRoutes(req, res, path))) return;
    // Not awaited (the binding handlers never reject): a stream's route then keeps no promise
    // chain of its own, with the response in its reaction, for as long as it stays open.
    if (isRpcPath(path)) return void jsonRpc(req, res);
    if (path.startsWith(`${apiPath}/`)) return void rest(req, res, path.slice(apiPath.length));
    if (next) {
      // Reached only with `extraRoutes` that did not serve the path: hand it on as it came.
      for (const header of ['x-content-type-options', 'vary', 'access-control-allow-origin', 'access-control-expose-headers']) res.removeHeader(header);
      return next();
    }
    const error = restError(new A2AError(A2AErrorCode.MethodNotFound, `Nothing is served at ${path}`));
    sendJson(res, 404, error.body, responseMediaType(req, 'application/json'));
  }

  async function serveCard(view: ArrivingRequest, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const base = `${publicBaseUrl(view, options.publicBaseUrl, options.trustProxy ?? false)}${frameworkBasePath(req)}${mount}`;
    const extra = [...websocketCardInterfaces(options, base), ...(options.extraInterfaces?.(base) ?? [])];
    writeNodeResult(res, await agentCardAnswer(options, cardClock, view, { base, basePath, extra, vary: cardVaries }));
  }

  function onFailure(res: ServerResponse, error: unknown): void {
    logger.error({ err: error }, 'A2A request listener failed');
    try {
      if (!res.headersSent) sendJson(res, 500, restError(new A2AError(A2AErrorCode.Internal)).body);
      else res.destroy();
    } catch {
      res.destroy();
    }
  }

  return (req, res, next) => {
    try {
      const path = routingPath(req.url);
      if (typeof next === 'function' && !owns(path) && !mayOwn) return next();
      route(req, res, path, typeof next === 'function' ? next : undefined).catch((error: unknown) => onFailure(res, error));
    } catch (error) {
      onFailure(res, error);
    }
  };
}

/**
 * The path a framework stripped from `req.url` before handing the request on: Express's
 * `req.baseUrl` (`/agent` for `app.use('/agent', listener)`), `''` for plain node:http.
 */
function frameworkBasePath(req: IncomingMessage): string {
  const baseUrl = (req as IncomingMessage & { baseUrl?: unknown }).baseUrl;
  return typeof baseUrl === 'string' ? baseUrl.replace(/\/+$/, '') : '';
}
