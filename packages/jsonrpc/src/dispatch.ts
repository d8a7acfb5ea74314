import type { StreamResponse } from '@a2a-polyglot/model';
import {
  A2AError,
  A2AErrorCode,
  type CallContext,
  decodeJsonRequest,
  type EventStream,
  type Logger,
  OPERATIONS,
  type Operation,
  type OperationName,
  type RequestHandler,
  silentLogger,
  type StreamOperation,
  type UnaryOperation,
} from '@a2a-polyglot/core';
import { JSONRPCServer, type JSONRPCRequest, type JSONRPCResponse } from 'json-rpc-2.0';
import { encodeStreamEvent, type JsonRpcFailure, type JsonRpcId, type JsonRpcRequest, type JsonRpcResponse, type JsonRpcSuccess, validateEnvelope } from './codec.js';
import { jsonRpcFailure } from './errors.js';

/** Builds the CallContext of one request (per entry of a batch). */
export type JsonRpcContextFactory = (request: JsonRpcRequest) => CallContext;

/** Per-message inputs that do not come from the JSON-RPC envelope. */
export interface JsonRpcCallOptions {
  /**
   * SubscribeToTask resume point: replay the events after this seq (SSE `Last-Event-ID`, a
   * WebSocket resume field). Must be a non-negative integer; anything else is InvalidParams.
   */
  readonly resumeAfterSeq?: number;
}

/** Settings of {@link JsonRpcDispatcher}. */
export interface JsonRpcDispatcherOptions {
  readonly logger?: Logger;
  /** Most entries a batch may hold; larger batches are rejected whole with -32600. Default 64. */
  readonly maxBatchSize?: number;
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

interface ServerParams {
  readonly ctx: CallContext;
}

/**
 * Transport-independent JSON-RPC 2.0 dispatch of the A2A operations: decode → call → encode.
 *
 * Both the HTTP binding and the WebSocket binding (same framing over text frames) feed it
 * parsed JSON messages and get a {@link JsonRpcOutcome} back; neither knows the operations.
 * Unary methods are dispatched by a `json-rpc-2.0` JSONRPCServer (one method per operation,
 * thrown A2AErrors mapped through core's table by `toJsonRpcError`); streaming methods are
 * intercepted first because they answer with a stream, not a result. Batches are handled
 * here, not by the library, because JSON-RPC 2.0 wants an array back even for one answer and
 * streaming methods cannot be batched.
 */
export class JsonRpcDispatcher {
  private readonly server: JSONRPCServer<ServerParams>;
  private readonly logger: Logger;
  private readonly maxBatchSize: number;

  constructor(
    private readonly handler: RequestHandler,
    options: JsonRpcDispatcherOptions = {},
  ) {
    this.logger = options.logger ?? silentLogger;
    this.maxBatchSize = options.maxBatchSize ?? 64;
    // Logging happens in the mapper, once per failure; the library's default listener is console.warn.
    this.server = new JSONRPCServer<ServerParams>({ errorListener: () => undefined });
    this.server.mapErrorToJSONRPCErrorResponse = (id, error) => jsonRpcFailure(id, error, this.logger) as JSONRPCResponse & JsonRpcFailure;
    this.server.handleMethodNotFound = async (request: JSONRPCRequest) =>
      request.id === undefined ? null : (jsonRpcFailure(request.id, new A2AError(A2AErrorCode.MethodNotFound, `Method ${request.method} not found`), this.logger) as JSONRPCResponse);
    for (const op of Object.values(OPERATIONS)) {
      if (op.kind === 'unary') this.server.addMethod(op.name, (params, { ctx }) => this.invokeUnary(op, params, ctx));
    }
  }

  /**
   * Handles one parsed JSON message (a request object or a batch array). Never rejects:
   * every failure becomes a JSON-RPC error response.
   */
  async dispatch(message: unknown, contextFor: JsonRpcContextFactory, options: JsonRpcCallOptions = {}): Promise<JsonRpcOutcome> {
    try {
      if (Array.isArray(message)) return await this.dispatchBatch(message, contextFor);
      const checked = validateEnvelope(message);
      if (!checked.ok) return { kind: 'response', response: jsonRpcFailure(checked.id, checked.error, this.logger) };
      const { request } = checked;
      const op = lookup(request.method);
      if (op?.kind === 'stream') return await this.openStream(op, request, contextFor, options);
      const response = await this.callUnary(request, contextFor(request));
      return response ? { kind: 'response', response } : { kind: 'none' };
    } catch (error) {
      return { kind: 'response', response: jsonRpcFailure(null, error, this.logger) };
    }
  }

  private async dispatchBatch(entries: readonly unknown[], contextFor: JsonRpcContextFactory): Promise<JsonRpcOutcome> {
    if (entries.length === 0) return this.reject(null, 'A batch must contain at least one request');
    if (entries.length > this.maxBatchSize) return this.reject(null, `A batch may contain at most ${this.maxBatchSize} requests`);
    const responses = await Promise.all(
      entries.map(async (entry): Promise<JsonRpcResponse | null> => {
        const checked = validateEnvelope(entry);
        if (!checked.ok) return jsonRpcFailure(checked.id, checked.error, this.logger);
        const { request } = checked;
        if (lookup(request.method)?.kind === 'stream') {
          const error = new A2AError(A2AErrorCode.InvalidRequest, `${request.method} streams its answer and cannot be part of a batch`);
          return jsonRpcFailure(request.id ?? null, error, this.logger);
        }
        return this.callUnary(request, contextFor(request));
      }),
    );
    return { kind: 'batch', responses: responses.filter((r): r is JsonRpcResponse => r !== null) };
  }

  private async openStream(op: StreamOperation, request: JsonRpcRequest, contextFor: JsonRpcContextFactory, options: JsonRpcCallOptions): Promise<JsonRpcOutcome> {
    if (request.id === undefined) return this.reject(null, `${request.method} streams its answer, so it needs an id (it cannot be a notification)`);
    const id = request.id;
    try {
      const resume = op.name === 'SubscribeToTask' ? checkResume(options.resumeAfterSeq) : undefined;
      const decoded = decodeJsonRequest(op, request.params, { strict: this.handler.strictRequests });
      const stream = await op.open(this.handler, decoded, contextFor(request), resume);
      return {
        kind: 'stream',
        id,
        method: op.name,
        stream,
        encodeEvent: (event) => encodeStreamEvent(id, event),
        encodeError: (error) => jsonRpcFailure(id, error),
      };
    } catch (error) {
      return { kind: 'response', response: jsonRpcFailure(id, error, this.logger) };
    }
  }

  private async callUnary(request: JsonRpcRequest, ctx: CallContext): Promise<JsonRpcResponse | null> {
    const response = await this.server.receive(request as JSONRPCRequest, { ctx });
    return response as JsonRpcResponse | null;
  }

  private async invokeUnary(op: UnaryOperation, params: unknown, ctx: CallContext): Promise<unknown> {
    const decoded: unknown = decodeJsonRequest(op, params, { strict: this.handler.strictRequests });
    const result: unknown = await op.invoke(this.handler, decoded, ctx);
    const json = op.encodeJson(result, decoded);
    return json === undefined ? null : json;
  }

  private reject(id: JsonRpcId, message: string): JsonRpcOutcome {
    return { kind: 'response', response: jsonRpcFailure(id, new A2AError(A2AErrorCode.InvalidRequest, message), this.logger) };
  }
}

/**
 * One-shot form of {@link JsonRpcDispatcher.dispatch}. Builds a dispatcher per call, which is
 * cheap but not free: long-lived transports should create one dispatcher and reuse it.
 */
export function dispatchJsonRpc(
  handler: RequestHandler,
  message: unknown,
  contextFor: JsonRpcContextFactory,
  options: JsonRpcCallOptions & JsonRpcDispatcherOptions = {},
): Promise<JsonRpcOutcome> {
  return new JsonRpcDispatcher(handler, options).dispatch(message, contextFor, options);
}

function lookup(method: string): Operation | undefined {
  return Object.prototype.hasOwnProperty.call(OPERATIONS, method) ? OPERATIONS[method as OperationName] : undefined;
}

function checkResume(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new A2AError(A2AErrorCode.InvalidParams, 'The resume point (Last-Event-ID) must be a non-negative integer', {
      fieldViolations: [{ field: 'Last-Event-ID', description: 'must be a non-negative integer event id' }],
    });
  }
  return value;
}

