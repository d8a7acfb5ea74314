import { A2AError, A2AErrorCode, type CallContext, type Logger, type ProtocolVersion, type ServedHandler, silentLogger } from '@a2a-polyglot/core';
import {
  emptyResult,
  exchangeCallContext,
  exchangeHeaderValue,
  type HttpExchangeRequest,
  type HttpExchangeResult,
  isJsonMediaType,
  jsonResult,
  nodeHttpHandler,
  readExchangeJson,
  responseMediaTypeOf,
  sseFrame,
} from '@a2a-polyglot/http';
import type { JsonRpcFailure, JsonRpcResponse } from './codec.js';
import { JsonRpcDispatcher } from './dispatch.js';
import type { JsonRpcStreamOutcome } from './outcome.js';
import { failureHeaders, httpStatusFor, jsonRpcFailure } from './errors.js';
import { activatedExtensionsHeader, JSON_RPC_CONTENT_TYPE } from './headers.js';

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

/** A node:http request handler for one endpoint (`(req, res)`). Never rejects. */
export type NodeHttpHandler = ReturnType<typeof nodeHttpHandler<[]>>;

/**
 * A binding over the universal request (`HttpExchangeRequest`): the answer as a result that a
 * runtime adapter writes (node:http, fetch, ...). Never rejects.
 */
export type ExchangeHandler = (req: HttpExchangeRequest) => Promise<HttpExchangeResult>;

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
 *
 * Runtime-free: the request is an `HttpExchangeRequest`, the answer a result its runtime's
 * adapter writes; {@link createJsonRpcHandler} is the node:http one.
 */
export function createJsonRpcExchangeHandler(handler: ServedHandler, options: JsonRpcHandlerOptions = {}): ExchangeHandler {
  const logger = options.logger ?? silentLogger;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const dispatcher = new JsonRpcDispatcher(handler, { logger, maxBatchSize: options.maxBatchSize, v03Methods: options.v03Methods ?? true });

  // One async function per request: the guard against bugs wraps the work in place (a
  // wrapper awaiting it would cost a promise and a turn more).
  async function serve(req: HttpExchangeRequest): Promise<HttpExchangeResult> {
    const type = responseMediaTypeOf(req.header('content-type'), req.header('accept'), JSON_RPC_CONTENT_TYPE);
    try {
      const charged = handler.chargeArrival('JSONRPC', req.remoteAddress);
      if (charged) {
        try {
          await charged;
        } catch (error) {
          return responseResult(jsonRpcFailure(null, error, logger), type, {});
        }
      }
      if (req.method !== 'POST') {
        const error = new A2AError(A2AErrorCode.InvalidRequest, `HTTP method ${req.method || '?'} is not allowed; JSON-RPC requests use POST`);
        return jsonResult(405, jsonRpcFailure(null, error), type, { allow: 'POST' });
      }
      const contentType = req.header('content-type');
      if (!isJsonMediaType(contentType)) {
        const error = new A2AError(A2AErrorCode.ContentTypeNotSupported, `Content-Type ${contentType} is not supported; send application/json`);
        return jsonResult(415, jsonRpcFailure(null, error), type);
      }
      let body: unknown;
      try {
        body = await readExchangeJson(req, maxBodyBytes);
        if (body === undefined) throw new A2AError(A2AErrorCode.ParseError, 'The request body is empty');
      } catch (error) {
        return responseResult(jsonRpcFailure(null, error, logger), type, {});
      }

      const signal = req.signal;
      const contexts: CallContext[] = [];
      const contextFor = (_request: unknown, wireVersion?: ProtocolVersion): CallContext => {
        // The arrival point pays for the first call; a batch's later entries spend their own.
        const addressCharged = charged !== undefined && contexts.length === 0;
        const ctx = exchangeCallContext('JSONRPC', req, { signal, wireVersion, logger, addressCharged });
        contexts.push(ctx);
        return ctx;
      };
      // (The dispatcher validates `Last-Event-ID` itself: a malformed one is InvalidParams with the request's id.)
      const outcome = await dispatcher.dispatch(body, contextFor, { resumeAfterSeq: exchangeHeaderValue(req, 'last-event-id') });
      if (outcome.kind === 'stream') {
        // A stream keeps its signal; after that the contexts need the request no more.
        const streamSignal = signal();
        req.release?.();
        // A stream is one request: its lines carry that call's fields.
        return sseResult(outcome, activatedExtensionsHeader(contexts), streamSignal, contexts[0]?.logger ?? logger);
      }
      req.release?.();
      const extensions = activatedExtensionsHeader(contexts);
      switch (outcome.kind) {
        case 'none':
          return emptyResult(204, extensions);
        case 'batch':
          if (outcome.responses.length === 0) return emptyResult(204, extensions);
          return jsonResult(200, outcome.responses, type, extensions);
        case 'response':
          return responseResult(outcome.response, type, extensions);
      }
    } catch (error) {
      // Only a bug gets here; answer without internals.
      logger.error({ err: error }, 'JSON-RPC handler failed');
      return jsonResult(500, internalFailure(), type);
    }
  }

  return serve;
}

/**
 * {@link createJsonRpcExchangeHandler} on node:http: the request read through
 * `nodeExchangeRequest`, the answer written by `writeNodeResult` (SSE with backpressure,
 * heartbeats, the stall timeout, and an end on disconnect or shutdown).
 */
export function createJsonRpcHandler(handler: ServedHandler, options: JsonRpcHandlerOptions = {}): NodeHttpHandler {
  return nodeHttpHandler(createJsonRpcExchangeHandler(handler, options), {
    heartbeatMs: options.heartbeatMs,
    stallTimeoutMs: options.sseStallTimeoutMs,
    shutdownSignal: options.shutdownSignal,
    logger: options.logger ?? silentLogger,
    what: 'JSON-RPC handler',
    fallback: () => jsonResult(500, internalFailure(), 'application/json'),
  });
}

/**
 * The SSE answer of an opened stream, built in a scope of its own: its encoders are closures,
 * and closures of one scope share what they capture, so made inside `serve` they would keep
 * the request, its call contexts and their readers alive for as long as the stream stays open
 * (about 1 KB of heap per idle stream: `SCENARIOS=idle` read 23.7–24.0 KB before, 22.8–22.9 after).
 */
function sseResult(outcome: JsonRpcStreamOutcome, headers: Record<string, string>, signal: AbortSignal, logger: Logger): HttpExchangeResult {
  return {
    kind: 'sse',
    headers,
    stream: outcome.stream,
    encode: (event) => outcome.encodeEventText(event),
    errorFrame: (error) => sseFrame(JSON.stringify(outcome.encodeError(error))),
    signal,
    logger,
  };
}

function responseResult(response: JsonRpcResponse, type: string, headers: Record<string, string>): HttpExchangeResult {
  // A success travels with 200 and no headers of its own: no merged copy then.
  if (!('error' in response)) return jsonResult(200, response, type, headers);
  const status = httpStatusFor(response);
  return jsonResult(status, response, type, { ...headers, ...failureHeaders(status, response) });
}

function internalFailure(): JsonRpcFailure {
  return jsonRpcFailure(null, new A2AError(A2AErrorCode.Internal));
}
