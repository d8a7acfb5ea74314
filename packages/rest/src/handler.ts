import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  A2AError,
  A2AErrorCode,
  type CallContext,
  type EventStream,
  type Logger,
  negotiateVersion,
  OPERATIONS,
  type ServedHandler,
  silentLogger,
} from '@a2a-polyglot/core';
import {
  extensionsHeader,
  isJsonContentType,
  nodeCallContext,
  pipeEventStream,
  readJsonBody,
  lazyRequestSignal,
  remoteAddressOf,
  responseMediaType,
  sendEmpty,
  sendJson,
  SseWriter,
} from '@a2a-polyglot/http';
import { type RestDialect, V1_REST } from './rest-dialect.js';
import { queryOf, resumeAfterSeq } from './headers.js';
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
export type RestHandler = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void>;

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
function dialectOf(req: IncomingMessage, path: string): RestDialect {
  if (!path.startsWith(V03_PREFIX)) return V1_REST;
  try {
    return negotiateVersion(nodeCallContext('HTTP+JSON', req).header('a2a-version')) === '0.3' ? V03_REST : V1_REST;
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
 */
export function createRestHandler(handler: ServedHandler, options: RestHandlerOptions = {}): RestHandler {
  const logger = options.logger ?? silentLogger;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  function fail(
    res: ServerResponse,
    dialect: RestDialect,
    type: string,
    thrown: unknown,
    ctx?: CallContext,
    status?: number,
    headers: Record<string, string> = {},
  ): void {
    const error = dialect.error(thrown, ctx?.logger ?? logger, status);
    sendJson(res, error.status, error.body, type, { ...extensionsHeader(ctx?.activatedExtensions), ...headers, ...error.headers });
  }

  async function serve(req: IncomingMessage, res: ServerResponse, path: string, dialect: RestDialect, type: string): Promise<void> {
    // The address point is spent first, before routing and the body (see chargeArrival).
    const charged = handler.chargeArrival('HTTP+JSON', remoteAddressOf(req));
    if (charged) await charged;
    const verb = req.method ?? '';
    const match = dialect.match(verb, pathWithoutQuery(path));
    if (match.kind === 'not-found') {
      return fail(res, dialect, type, new A2AError(A2AErrorCode.MethodNotFound, `No A2A operation at ${verb} ${path}`));
    }
    if (match.kind === 'wrong-verb') {
      const error = new A2AError(A2AErrorCode.MethodNotFound, `${verb} is not allowed on ${path}; use ${match.allow.join(' or ')}`);
      return fail(res, dialect, type, error, undefined, 405, { allow: match.allow.join(', ') });
    }
    const { route, params, tenant } = match;
    const op = OPERATIONS[route.operation];
    let body: unknown;
    if (route.verb === 'POST') {
      if (!isJsonContentType(req)) {
        const error = new A2AError(
          A2AErrorCode.ContentTypeNotSupported,
          `Content-Type ${req.headers['content-type']} is not supported; send application/a2a+json or application/json`,
        );
        return fail(res, dialect, type, error, undefined, 415);
      }
      body = await readJsonBody(req, maxBodyBytes);
    }
    const request = dialect.decode(route, params, queryOf(req), body, { strict: handler.strictRequests });
    const signal = lazyRequestSignal(req, res);
    const ctx = nodeCallContext('HTTP+JSON', req, {
      pathTenant: tenant,
      signal,
      wireVersion: dialect.wireVersion,
      logger,
      addressCharged: charged !== undefined,
    });
    try {
      if (op.kind === 'stream') {
        const resume = op.name === 'SubscribeToTask' ? resumeAfterSeq(req) : undefined;
        const stream = await op.open(handler, request, ctx, resume);
        const streamSignal = signal();
        signal.release();
        return await pipe(res, dialect, stream, streamSignal, extensionsHeader(ctx.activatedExtensions), ctx.logger ?? logger);
      }
      const result = await op.invoke(handler, request, ctx);
      signal.release();
      const headers = extensionsHeader(ctx.activatedExtensions);
      if (route.status === 204) return sendEmpty(res, 204, headers);
      return sendJson(res, route.status, dialect.encode(route, result, request), type, headers);
    } catch (error) {
      // Answered (with an error): the context needs the request no more, as on success.
      signal.release();
      return fail(res, dialect, type, error, ctx);
    }
  }

  async function pipe(
    res: ServerResponse,
    dialect: RestDialect,
    stream: EventStream,
    signal: AbortSignal,
    headers: Record<string, string>,
    callLogger: Logger,
  ): Promise<void> {
    if (res.destroyed) return stream.close();
    const sse = new SseWriter(res, {
      heartbeatMs: options.heartbeatMs,
      stallTimeoutMs: options.sseStallTimeoutMs,
      onStall: () => callLogger.warn({ stallTimeoutMs: options.sseStallTimeoutMs }, 'SSE stream ended: the client stopped reading'),
      headers,
    });
    // Returned, not awaited: an idle stream then keeps no suspended frame of its own here.
    return pipeEventStream(stream, sse, {
      encode: dialect.encodeEvent,
      onError: (error, writer) => writer.event(JSON.stringify(dialect.error(error).body), { event: 'error' }),
      signal,
      shutdownSignal: options.shutdownSignal,
      logger: callLogger,
    });
  }

  return async (req, res, path) => {
    const dialect = dialectOf(req, path);
    const type = responseMediaType(req, dialect.contentType);
    try {
      await serve(req, res, path, dialect, type);
    } catch (error) {
      // Decoding failures land here (before a call context exists), and bugs.
      if (!res.headersSent) fail(res, dialect, type, error);
      else {
        logger.error({ err: error }, 'REST handler failed after the response started');
        res.destroy();
      }
    }
  };
}
