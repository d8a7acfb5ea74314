import {
  A2AError,
  A2AErrorCode,
  type CallContext,
  type Logger,
  negotiateVersion,
  OPERATIONS,
  resumeCursor,
  type ServedHandler,
  silentLogger,
} from '@a2a-polyglot/core';
import {
  emptyResult,
  exchangeCallContext,
  exchangeHeaderValue,
  exchangeVersion,
  extensionsHeader,
  type HttpExchangeRequest,
  type HttpExchangeResult,
  isJsonMediaType,
  jsonResult,
  jsonTextResult,
  nodeHttpHandler,
  readExchangeJson,
  responseMediaTypeOf,
  sseFrame,
} from '@a2a-polyglot/http';
import { restError } from './errors.js';
import { type RestDialect, V1_REST } from './rest-dialect.js';
import { V03_REST } from './rest-v03.js';

/** Settings of {@link createRestHandler}. */
export interface RestHandlerOptions {
  /** Largest accepted request body; larger ones get HTTP 413. Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /** Idle time before an SSE heartbeat comment. Default 15000; 0 disables. */
  readonly heartbeatMs?: number;
  /**
   * How long an SSE stream may wait on a client that does not read before the response is
   * destroyed (the task continues; the client may resume). Default 30000; 0 disables.
   */
  readonly sseStallTimeoutMs?: number;
  /** Aborting it ends every open stream of this handler (server shutdown). */
  readonly shutdownSignal?: AbortSignal;
  readonly logger?: Logger;
}

/**
 * A node:http handler for everything under the REST base URL. `path` is the request path
 * relative to that base (`/message:send`, `/t1/tasks/abc:cancel`), so the host decides where
 * the binding is mounted. Never rejects.
 */
export type RestHandler = ReturnType<typeof nodeHttpHandler<[path: string]>>;

/**
 * The REST binding over the universal request (`HttpExchangeRequest`), `path` relative to the
 * REST base URL as for {@link RestHandler}: the answer as a result a runtime adapter writes. Never rejects.
 */
export type RestExchangeHandler = (req: HttpExchangeRequest, path: string) => Promise<HttpExchangeResult>;

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The path part of a request target (`/tasks/abc?historyLength=2` → `/tasks/abc`). */
function pathWithoutQuery(path: string): string {
  const query = path.indexOf('?');
  return query < 0 ? path : path.slice(0, query);
}

/** The v0.3 REST routes live under `/v1/` (spec §0 item 16). */
const V03_PREFIX = '/v1/';

/**
 * Which REST surface serves a request. `/v1/…` is both the v0.3 REST prefix and, for v1.0, a
 * tenant named `v1`: the version rule decides. A request naming `A2A-Version: 1.0` (header or
 * query) keeps the v1.0 meaning; one naming none, or 0.3, gets the v0.3 routes. Everything
 * outside `/v1/` is v1.0 (whose version check then refuses v0.3 calls).
 */
function dialectOf(req: HttpExchangeRequest, path: string): RestDialect {
  if (!path.startsWith(V03_PREFIX)) return V1_REST;
  try {
    return negotiateVersion(exchangeVersion(req)) === '0.3' ? V03_REST : V1_REST;
  } catch {
    return V1_REST; // An unknown version: the v1.0 path refuses it with VersionNotSupported.
  }
}

/**
 * The A2A HTTP+JSON (REST) binding (spec §3.4, §4): route → build the request message JSON
 * from path, query and body → decode → call the core → encode. Unary answers are JSON (201
 * for a created push config, 204 for a delete) in the media type the client used
 * (`application/a2a+json` by default, see `responseMediaType`); streams are SSE with
 * `data: <StreamResponse>` and `id: <seq>`; errors are HTTP statuses from core's error table
 * with a `{"error": google.rpc.Status}` body. A non-JSON `Content-Type` is 415 with the
 * CONTENT_TYPE_NOT_SUPPORTED ErrorInfo: the table's 400 (v1.0.1) is for content the agent
 * cannot handle, while a body the binding cannot read is what 415 means in HTTP (v1.0.0's
 * mapping, which the public compatibility suite checks).
 *
 * A2A v0.3 REST (`/v1/message:send`, `/v1/tasks/{id}`, `/v1/card`…, bodies in the ProtoJSON
 * of `a2a.v1`, bare `{code, message}` errors) is served by the same code with the v0.3
 * dialect (rest-v03.ts), chosen by {@link dialectOf}.
 *
 * Runtime-free: the request is an `HttpExchangeRequest`, the answer a result its runtime's
 * adapter writes; {@link createRestHandler} is the node:http one.
 */
export function createRestExchangeHandler(handler: ServedHandler, options: RestHandlerOptions = {}): RestExchangeHandler {
  const logger = options.logger ?? silentLogger;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  function fail(
    dialect: RestDialect,
    type: string,
    thrown: unknown,
    ctx?: CallContext,
    status?: number,
    headers: Record<string, string> = {},
  ): HttpExchangeResult {
    const error = dialect.error(thrown, ctx?.logger ?? logger, status);
    return jsonResult(error.status, error.body, type, { ...extensionsHeader(ctx?.activatedExtensions), ...headers, ...error.headers });
  }

  // One async function per request: the guard for decoding failures and bugs wraps the work
  // in place (a wrapper awaiting it would cost a promise and a turn more).
  async function serve(req: HttpExchangeRequest, path: string): Promise<HttpExchangeResult> {
    const dialect = dialectOf(req, path);
    const type = responseMediaTypeOf(req.header('content-type'), req.header('accept'), dialect.contentType);
    try {
      // The address point is spent first, before routing and the body (see chargeArrival).
      const charged = handler.chargeArrival('HTTP+JSON', req.remoteAddress);
      if (charged) await charged;
      const verb = req.method;
      const match = dialect.match(verb, pathWithoutQuery(path));
      if (match.kind === 'not-found') {
        return fail(dialect, type, new A2AError(A2AErrorCode.MethodNotFound, `No A2A operation at ${verb} ${path}`));
      }
      if (match.kind === 'wrong-verb') {
        const error = new A2AError(A2AErrorCode.MethodNotFound, `${verb} is not allowed on ${path}; use ${match.allow.join(' or ')}`);
        return fail(dialect, type, error, undefined, 405, { allow: match.allow.join(', ') });
      }
      const { route, params, tenant } = match;
      const op = OPERATIONS[route.operation];
      let body: unknown;
      if (route.verb === 'POST') {
        const contentType = req.header('content-type');
        if (!isJsonMediaType(contentType)) {
          const error = new A2AError(
            A2AErrorCode.ContentTypeNotSupported,
            `Content-Type ${contentType} is not supported; send application/a2a+json or application/json`,
          );
          return fail(dialect, type, error, undefined, 415);
        }
        body = await readExchangeJson(req, maxBodyBytes);
      }
      const request = dialect.decode(route, params, req.query(), body, { strict: handler.strictRequests });
      const signal = req.signal;
      const ctx = exchangeCallContext('HTTP+JSON', req, {
        pathTenant: tenant,
        signal,
        wireVersion: dialect.wireVersion,
        logger,
        addressCharged: charged !== undefined,
      });
      try {
        if (op.kind === 'stream') {
          const resume = op.name === 'SubscribeToTask' ? resumeCursor(exchangeHeaderValue(req, 'last-event-id'), 'Last-Event-ID') : undefined;
          const stream = await op.open(handler, request, ctx, resume);
          const streamSignal = signal();
          req.release?.();
          return {
            kind: 'sse',
            headers: extensionsHeader(ctx.activatedExtensions),
            stream,
            encode: dialect.encodeEvent,
            errorFrame: (error) => sseFrame(JSON.stringify(dialect.error(error).body), undefined, 'error'),
            signal: streamSignal,
            logger: ctx.logger ?? logger,
          };
        }
        const result = await op.invoke(handler, request, ctx);
        req.release?.();
        const headers = extensionsHeader(ctx.activatedExtensions);
        if (route.status === 204) return emptyResult(204, headers);
        const text = dialect.encodeText?.(route, result, request);
        if (text !== undefined) return jsonTextResult(route.status, text, type, headers);
        return jsonResult(route.status, dialect.encode(route, result, request), type, headers);
      } catch (error) {
        // Answered (with an error): the context needs the request no more, as on success.
        req.release?.();
        return fail(dialect, type, error, ctx);
      }
    } catch (error) {
      // Decoding failures land here (before a call context exists), and bugs.
      return fail(dialect, type, error);
    }
  }

  return serve;
}

/**
 * {@link createRestExchangeHandler} on node:http: the request read through
 * `nodeExchangeRequest`, the answer written by `writeNodeResult` (SSE with backpressure,
 * heartbeats, the stall timeout, and an end on disconnect or shutdown).
 */
export function createRestHandler(handler: ServedHandler, options: RestHandlerOptions = {}): RestHandler {
  return nodeHttpHandler(createRestExchangeHandler(handler, options), {
    heartbeatMs: options.heartbeatMs,
    stallTimeoutMs: options.sseStallTimeoutMs,
    shutdownSignal: options.shutdownSignal,
    logger: options.logger ?? silentLogger,
    what: 'REST handler',
    fallback: () => {
      const error = restError(new A2AError(A2AErrorCode.Internal));
      return jsonResult(error.status, error.body, 'application/json', error.headers);
    },
  });
}
