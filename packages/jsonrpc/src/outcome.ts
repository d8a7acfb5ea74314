import type { StreamResponse } from '@a2a-polyglot/model';
import type { CallContext, EventStream, OperationName, ProtocolVersion } from '@a2a-polyglot/core';
import type { JsonRpcFailure, JsonRpcId, JsonRpcRequest, JsonRpcResponse, JsonRpcSuccess } from './codec.js';

/*
 * The contract between the dispatcher (dispatch.ts), its dialects (jsonrpc-dialect.ts,
 * jsonrpc-v03.ts) and the transports that feed them. It has a file of its own so the dialects,
 * which the dispatcher delegates to, do not import back from dispatch.ts.
 */

/**
 * Builds the CallContext of one request (per entry of a batch). `wireVersion` is '0.3' when
 * the request used a v0.3 method name, and must end up on the context.
 */
export type JsonRpcContextFactory = (request: JsonRpcRequest, wireVersion?: ProtocolVersion) => CallContext;

/** Per-message inputs that do not come from the JSON-RPC envelope. */
export interface JsonRpcCallOptions {
  /**
   * SubscribeToTask resume point: replay the events after this seq (SSE `Last-Event-ID` text,
   * a WebSocket resume number). Read by core `resumeCursor`: a non-negative integer, anything
   * else is InvalidParams.
   */
  readonly resumeAfterSeq?: number | string;
}

/** An opened stream: the transport pumps `stream` and frames events/errors with the helpers. */
export interface JsonRpcStreamOutcome {
  readonly kind: 'stream';
  /** The request id every frame of this stream echoes. */
  readonly id: JsonRpcId;
  readonly method: OperationName;
  readonly stream: EventStream;
  /** One event as a whole JSON-RPC success response. */
  encodeEvent(event: StreamResponse): JsonRpcSuccess;
  /**
   * One event as the text of that response, `seq` appended when > 0 (WebSocket frames): what
   * SSE and WebSocket write, equal to `JSON.stringify` of {@link encodeEvent}'s (plus `seq`).
   */
  encodeEventText(event: StreamResponse, seq?: number): string;
  /** A failure after the stream started, as a JSON-RPC error response with the same id. */
  encodeError(error: unknown): JsonRpcFailure;
}

/**
 * What one incoming JSON-RPC message leads to:
 * - `response`: exactly one response (a unary result, or any error, including pre-stream
 *   failures of streaming methods, which are never streamed);
 * - `batch`: the responses to a batch, in request order (empty when all were notifications);
 * - `none`: a notification; nothing may be sent back;
 * - `stream`: a streaming method that opened successfully.
 */
export type JsonRpcOutcome =
  | { readonly kind: 'response'; readonly response: JsonRpcResponse }
  | { readonly kind: 'batch'; readonly responses: readonly JsonRpcResponse[] }
  | { readonly kind: 'none' }
  | JsonRpcStreamOutcome;
