import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2AError, A2AErrorCode, type CallContext, decodeJsonRequest, type EventStream, type Logger, OPERATIONS, type RequestHandler, silentLogger } from '@a2a-polyglot/core';
import {
  extensionsHeader,
  isJsonContentType,
  nodeCallContext,
  pipeEventStream,
  readJsonBody,
  lazyRequestSignal,
  responseMediaType,
  sendEmpty,
  sendJson,
  SseWriter,
} from '@a2a-polyglot/http';
import { buildRequestJson, encodeStreamData } from './codec.js';
import { restError } from './errors.js';
import { queryOf, REST_CONTENT_TYPE, resumeAfterSeq } from './headers.js';
import { matchRoute } from './routes.js';

/** Settings of {@link createRestHandler}. */
export interface RestHandlerOptions {
  /** Largest accepted request body; larger ones get HTTP 413. Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /** Idle time before an SSE heartbeat comment. Default 15000; 0 disables. */
  readonly heartbeatMs?: number;
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

/**
 * The A2A HTTP+JSON (REST) binding (spec §3.4, §4): route → build the request message JSON
 * from path, query and body → decode strictly → call the core → encode. Unary answers are
 * JSON (201 for a created push config, 204 for a delete) in the media type the client used
 * (`application/a2a+json` by default, see `responseMediaType`); streams are SSE with
 * `data: <StreamResponse>` and `id: <seq>`; errors are HTTP statuses from core's error table
 * with a `{"error": google.rpc.Status}` body. A non-JSON `Content-Type` is 415 with the
 * CONTENT_TYPE_NOT_SUPPORTED ErrorInfo: the table's 400 (v1.0.1) is for content the agent
 * cannot handle, while a body the binding cannot read is what 415 means in HTTP (v1.0.0's
 * mapping, which the public compatibility suite checks).
 */
export function createRestHandler(handler: RequestHandler, options: RestHandlerOptions = {}): RestHandler {
  const logger = options.logger ?? silentLogger;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  function fail(res: ServerResponse, type: string, thrown: unknown, ctx?: CallContext, status?: number, headers: Record<string, string> = {}): void {
    const error = restError(thrown, logger, status);
    sendJson(res, error.status, error.body, type, { ...extensionsHeader(ctx?.activatedExtensions), ...headers, ...error.headers });
  }

  async function serve(req: IncomingMessage, res: ServerResponse, path: string, type: string): Promise<void> {
    const verb = req.method ?? '';
    const match = matchRoute(verb, path.split('?')[0]!);
    if (match.kind === 'not-found') {
      return fail(res, type, new A2AError(A2AErrorCode.MethodNotFound, `No A2A operation at ${verb} ${path}`));
    }
    if (match.kind === 'wrong-verb') {
      const error = new A2AError(A2AErrorCode.MethodNotFound, `${verb} is not allowed on ${path}; use ${match.allow.join(' or ')}`);
      return fail(res, type, error, undefined, 405, { allow: match.allow.join(', ') });
    }
    const { route, params, tenant } = match;
    const op = OPERATIONS[route.operation];
    let body: unknown;
    if (route.verb === 'POST') {
      if (!isJsonContentType(req)) {
        const error = new A2AError(A2AErrorCode.ContentTypeNotSupported, `Content-Type ${req.headers['content-type']} is not supported; send application/a2a+json or application/json`);
        return fail(res, type, error, undefined, 415);
      }
      body = await readJsonBody(req, maxBodyBytes);
    }
    const decoding = { strict: handler.strictRequests };
    const request = decodeJsonRequest(op, buildRequestJson(op, params, queryOf(req), body, route.verb !== 'POST', decoding), decoding);
    const signal = lazyRequestSignal(req, res);
    const ctx = nodeCallContext('HTTP+JSON', req, { pathTenant: tenant, signal });
    try {
      if (op.kind === 'stream') {
        const resume = op.name === 'SubscribeToTask' ? resumeAfterSeq(req) : undefined;
        const stream = await op.open(handler, request, ctx, resume);
        const streamSignal = signal();
        signal.release();
        return await pipe(res, stream, streamSignal, extensionsHeader(ctx.activatedExtensions));
      }
      const result = await op.invoke(handler, request, ctx);
      signal.release();
      const headers = extensionsHeader(ctx.activatedExtensions);
      if (route.status === 204) return sendEmpty(res, 204, headers);
      return sendJson(res, route.status, op.encodeJson(result, request), type, headers);
    } catch (error) {
      // Answered (with an error): the context needs the request no more, as on success.
      signal.release();
      return fail(res, type, error, ctx);
    }
  }

  async function pipe(res: ServerResponse, stream: EventStream, signal: AbortSignal, headers: Record<string, string>): Promise<void> {
    if (res.destroyed) return stream.close();
    const sse = new SseWriter(res, { heartbeatMs: options.heartbeatMs, headers });
    await pipeEventStream(stream, sse, {
      encode: encodeStreamData,
      onError: (error, writer) => writer.event(JSON.stringify(restError(error).body), { event: 'error' }),
      signal,
      shutdownSignal: options.shutdownSignal,
      logger,
    });
  }

  return async (req, res, path) => {
    const type = responseMediaType(req, REST_CONTENT_TYPE);
    try {
      await serve(req, res, path, type);
    } catch (error) {
      // Decoding failures land here (before a call context exists), and bugs.
      if (!res.headersSent) fail(res, type, error);
      else {
        logger.error('REST handler failed after the response started', { error });
        res.destroy();
      }
    }
  };
}
