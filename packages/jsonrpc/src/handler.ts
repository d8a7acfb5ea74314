import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2AError, A2AErrorCode, type CallContext, type Logger, type ProtocolVersion, type ServedHandler, silentLogger } from '@a2a-polyglot/core';
import {
  isJsonContentType,
  lazyRequestSignal,
  nodeCallContext,
  pipeEventStream,
  readJsonBody,
  remoteAddressOf,
  responseMediaType,
  sendEmpty,
  sendJson,
  SseWriter,
} from '@a2a-polyglot/http';
import type { JsonRpcFailure, JsonRpcResponse } from './codec.js';
import { JsonRpcDispatcher } from './dispatch.js';
import { failureHeaders, httpStatusFor, jsonRpcFailure } from './errors.js';
import { activatedExtensionsHeader, JSON_RPC_CONTENT_TYPE, resumeAfterSeq } from './headers.js';
import type { JsonRpcStreamOutcome } from './outcome.js';

/** Settings of {@link createJsonRpcHandler}. */
export interface JsonRpcHandlerOptions {
  /** Largest accepted request body; larger ones get HTTP 413. Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /** Idle time before an SSE heartbeat comment. Default 15000; 0 disables. */
  readonly heartbeatMs?: number;
  /**
   * How long an SSE stream may wait on a client that does not read before the response is
   * destroyed (the task continues; the client may resume). Default 30000; 0 disables.
   */
  readonly sseStallTimeoutMs?: number;
  /** Most requests in one batch. Default 64. */
  readonly maxBatchSize?: number;
  /** Aborting it ends every open stream of this handler (server shutdown). */
  readonly shutdownSignal?: AbortSignal;
  /**
   * Serve the A2A v0.3 method names (`message/send`, ...) on the same URL too, default true:
   * the method name decides the generation (PascalCase ⇒ v1.0, slash names ⇒ v0.3).
   */
  readonly v03Methods?: boolean;
  readonly logger?: Logger;
}

/** A node:http request handler for one endpoint. Never rejects. */
export type NodeHttpHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The A2A JSON-RPC 2.0 binding over HTTP for ONE endpoint URL (the `AgentInterface.url` of the
 * JSONRPC interface): POST with a JSON body, unary answers as JSON, streaming answers as SSE
 * where every `data:` is a whole JSON-RPC response and `id:` is the event's seq.
 *
 * HTTP-level problems are answered with a JSON-RPC error body too, so every client parser
 * works: wrong verb → 405, non-JSON content type → 415 with -32005 ContentTypeNotSupported
 * (the spec's error for it; the status is the HTTP one for an unusable body, and the public
 * compatibility suite reads the JSON-RPC error whatever the status), oversize body → 413,
 * missing credentials → 401 with `WWW-Authenticate`, a spent address budget → 429 with
 * `Retry-After` (counted as the request arrives, before its body is read, so malformed
 * requests spend it too); all other JSON-RPC errors use HTTP 200.
 * JSON bodies, errors included, are sent in the media type the client used (see
 * `responseMediaType`; `application/json` by default).
 */
export function createJsonRpcHandler(handler: ServedHandler, options: JsonRpcHandlerOptions = {}): NodeHttpHandler {
  const logger = options.logger ?? silentLogger;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const dispatcher = new JsonRpcDispatcher(handler, { logger, maxBatchSize: options.maxBatchSize, v03Methods: options.v03Methods ?? true });

  async function serve(req: IncomingMessage, res: ServerResponse, type: string): Promise<void> {
    const charged = handler.chargeArrival('JSONRPC', remoteAddressOf(req));
    if (charged) {
      try {
        await charged;
      } catch (error) {
        return sendResponse(res, jsonRpcFailure(null, error, logger), type, {});
      }
    }
    if (req.method !== 'POST') {
      const error = new A2AError(A2AErrorCode.InvalidRequest, `HTTP method ${req.method ?? '?'} is not allowed; JSON-RPC requests use POST`);
      return sendJson(res, 405, jsonRpcFailure(null, error), type, { allow: 'POST' });
    }
    if (!isJsonContentType(req)) {
      const error = new A2AError(A2AErrorCode.ContentTypeNotSupported, `Content-Type ${req.headers['content-type']} is not supported; send application/json`);
      return sendJson(res, 415, jsonRpcFailure(null, error), type);
    }
    let body: unknown;
    try {
      body = await readJsonBody(req, maxBodyBytes);
      if (body === undefined) throw new A2AError(A2AErrorCode.ParseError, 'The request body is empty');
    } catch (error) {
      return sendResponse(res, jsonRpcFailure(null, error, logger), type, {});
    }

    const signal = lazyRequestSignal(req, res);
    const contexts: CallContext[] = [];
    const contextFor = (_request: unknown, wireVersion?: ProtocolVersion): CallContext => {
      // The arrival point pays for the first call; a batch's later entries spend their own.
      const addressCharged = charged !== undefined && contexts.length === 0;
      const ctx = nodeCallContext('JSONRPC', req, { signal, wireVersion, logger, addressCharged });
      contexts.push(ctx);
      return ctx;
    };
    const outcome = await dispatcher.dispatch(body, contextFor, { resumeAfterSeq: resumeAfterSeq(req) });
    if (outcome.kind === 'stream') {
      // A stream keeps its signal; after that the contexts need the request no more.
      const streamSignal = signal();
      signal.release();
      // A stream is one request: its lines carry that call's fields.
      return stream(res, outcome, streamSignal, activatedExtensionsHeader(contexts), contexts[0]?.logger ?? logger);
    }
    signal.release();
    const extensions = activatedExtensionsHeader(contexts);
    switch (outcome.kind) {
      case 'none':
        return sendEmpty(res, 204, extensions);
      case 'batch':
        if (outcome.responses.length === 0) return sendEmpty(res, 204, extensions);
        return sendJson(res, 200, outcome.responses, type, extensions);
      case 'response':
        return sendResponse(res, outcome.response, type, extensions);
    }
  }

  /** (Not async: it hands back the pipe's promise, so an idle stream keeps no frame of its own here.) */
  function stream(res: ServerResponse, outcome: JsonRpcStreamOutcome, signal: AbortSignal, headers: Record<string, string>, callLogger: Logger): Promise<void> {
    if (res.destroyed) {
      outcome.stream.close();
      return Promise.resolve();
    }
    const sse = new SseWriter(res, {
      heartbeatMs: options.heartbeatMs,
      stallTimeoutMs: options.sseStallTimeoutMs,
      onStall: () => callLogger.warn({ stallTimeoutMs: options.sseStallTimeoutMs }, 'SSE stream ended: the client stopped reading'),
      headers,
    });
    return pipeEventStream(outcome.stream, sse, {
      encode: (event) => outcome.encodeEventText(event),
      onError: (error, writer) => writer.event(JSON.stringify(outcome.encodeError(error))),
      signal,
      shutdownSignal: options.shutdownSignal,
      logger: callLogger,
    });
  }

  return async (req, res) => {
    const type = responseMediaType(req, JSON_RPC_CONTENT_TYPE);
    try {
      await serve(req, res, type);
    } catch (error) {
      // Only a bug gets here; answer without internals if we still can.
      logger.error({ err: error }, 'JSON-RPC handler failed');
      if (!res.headersSent) sendJson(res, 500, internalFailure(), type);
      else res.destroy();
    }
  };
}

function sendResponse(res: ServerResponse, response: JsonRpcResponse, type: string, headers: Record<string, string>): void {
  const status = httpStatusFor(response);
  sendJson(res, status, response, type, { ...headers, ...failureHeaders(status, response) });
}

function internalFailure(): JsonRpcFailure {
  return jsonRpcFailure(null, new A2AError(A2AErrorCode.Internal));
}
