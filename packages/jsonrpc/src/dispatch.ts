import type { StreamResponse } from '@a2a-polyglot/model';
import {
  A2AError,
  A2AErrorCode,
  type CallContext,
  decodeJsonRequest,
  type EventStream,
  type Logger,
  findOperation,
  OPERATIONS,
  type OperationName,
  type ProtocolVersion,
  type RequestHandler,
  resumeCursor,
  silentLogger,
  type StreamOperation,
  type UnaryOperation,
} from '@a2a-polyglot/core';
import { v03Method, type V03Method } from '@a2a-polyglot/v03/json';
import { JSONRPCServer, type JSONRPCRequest } from 'json-rpc-2.0';
import {
  encodeStreamEvent,
  streamEventTextEncoder,
  type JsonRpcFailure,
  type JsonRpcId,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcSuccess,
  validateEnvelope,
} from './codec.js';
import { jsonRpcFailure } from './errors.js';
import { V03JsonRpcDispatch } from './v03-dispatch.js';

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

/** Settings of {@link JsonRpcDispatcher}. */
export interface JsonRpcDispatcherOptions {
  readonly logger?: Logger;
  /** Most entries a batch may hold; larger batches are rejected whole with -32600. Default 64. */
  readonly maxBatchSize?: number;
  /**
   * Also serve the A2A v0.3 method names (`message/send`, `tasks/get`, ...) through the v0.3
   * codec. Default false: only the HTTP binding turns it on, as v0.3 had no WebSocket binding.
   */
  readonly v03Methods?: boolean;
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

interface ServerParams {
  readonly ctx: CallContext;
}

/**
 * Transport-independent JSON-RPC 2.0 dispatch of the A2A operations: decode → call → encode.
 *
 * Both the HTTP binding and the WebSocket binding (same framing over text frames) feed it
 * parsed JSON messages and get a {@link JsonRpcOutcome} back; neither knows the operations.
 * Unary methods are dispatched by a `json-rpc-2.0` JSONRPCServer (one method per operation,
 * thrown A2AErrors mapped through core's table by `toJsonRpcError`; it also turns a
 * notification's answer into none); streaming methods are intercepted first because they
 * answer with a stream, not a result.
 *
 * The envelope and batches stay here, not in the library: json-rpc-2.0 1.8.1 unwraps a batch
 * with one answer into a bare object (JSON-RPC 2.0 §6 wants an array), rejects a whole batch
 * with a TypeError when one entry is `null`, runs calls whose id is an object or whose method
 * is not a string, and answers an invalid envelope with a bare "Invalid Request" without the
 * ErrorInfo an A2A error carries in `data`. test/library-limits.test.ts shows each case next
 * to our answer (and fails when a library upgrade fixes one, so the split can be revisited).
 */
export class JsonRpcDispatcher {
  private readonly server: JSONRPCServer<ServerParams>;
  private readonly logger: Logger;
  private readonly maxBatchSize: number;
  private readonly v03: V03JsonRpcDispatch | undefined;
  /**
   * The call logger of each failure thrown by a unary operation: the library maps the
   * failure to a response without the call's context, so the failure remembers its call.
   */
  private readonly failedCalls = new WeakMap<A2AError, Logger>();

  constructor(
    private readonly handler: RequestHandler,
    options: JsonRpcDispatcherOptions = {},
  ) {
    this.logger = options.logger ?? silentLogger;
    this.maxBatchSize = options.maxBatchSize ?? 64;
    this.v03 = options.v03Methods ? new V03JsonRpcDispatch(handler, this.logger) : undefined;
    // Logging happens in the mapper, once per failure; the library's default listener is console.warn.
    this.server = new JSONRPCServer<ServerParams>({ errorListener: () => undefined });
    this.server.mapErrorToJSONRPCErrorResponse = (id, error) => jsonRpcFailure(id, error, this.callLogger(error));
    this.server.handleMethodNotFound = async (request: JSONRPCRequest) =>
      request.id === undefined ? null : jsonRpcFailure(request.id, methodNotFound(request.method), this.logger);
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
      const legacy = this.served03(request.method);
      if (legacy && OPERATIONS[legacy.operation].kind === 'stream') return await this.v03!.openStream(legacy, request, contextFor, options);
      const op = findOperation(request.method);
      if (op?.kind === 'stream') return await this.openStream(op, request, contextFor, options);
      const response = await this.callUnary(request, contextFor);
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
        const legacy = this.served03(request.method);
        if ((legacy ? OPERATIONS[legacy.operation] : findOperation(request.method))?.kind === 'stream') {
          const error = new A2AError(A2AErrorCode.InvalidRequest, `${request.method} streams its answer and cannot be part of a batch`);
          return jsonRpcFailure(request.id ?? null, error, this.logger);
        }
        return this.callUnary(request, contextFor);
      }),
    );
    return { kind: 'batch', responses: responses.filter((r): r is JsonRpcResponse => r !== null) };
  }

  private async openStream(
    op: StreamOperation,
    request: JsonRpcRequest,
    contextFor: JsonRpcContextFactory,
    options: JsonRpcCallOptions,
  ): Promise<JsonRpcOutcome> {
    if (request.id === undefined) return this.reject(null, `${request.method} streams its answer, so it needs an id (it cannot be a notification)`);
    const id = request.id;
    let ctx: CallContext | undefined;
    try {
      const resume = op.name === 'SubscribeToTask' ? resumeCursor(options.resumeAfterSeq, 'Last-Event-ID') : undefined;
      const decoded = decodeJsonRequest(op, request.params, { strict: this.handler.strictRequests });
      ctx = contextFor(request);
      const stream = await op.open(this.handler, decoded, ctx, resume);
      return {
        kind: 'stream',
        id,
        method: op.name,
        stream,
        encodeEvent: (event) => encodeStreamEvent(id, event),
        encodeEventText: streamEventTextEncoder(id),
        encodeError: (error) => jsonRpcFailure(id, error),
      };
    } catch (error) {
      return { kind: 'response', response: jsonRpcFailure(id, error, ctx?.logger ?? this.logger) };
    }
  }

  /** The v0.3 method of that name, when this dispatcher serves v0.3 names. */
  private served03(name: string): V03Method | undefined {
    return this.v03 ? v03Method(name) : undefined;
  }

  private async callUnary(request: JsonRpcRequest, contextFor: JsonRpcContextFactory): Promise<JsonRpcResponse | null> {
    const legacy = this.served03(request.method);
    if (legacy) return this.v03!.call(legacy, request, contextFor);
    return this.server.receive(request, { ctx: contextFor(request) });
  }

  private async invokeUnary(op: UnaryOperation, params: unknown, ctx: CallContext): Promise<unknown> {
    try {
      const decoded: unknown = decodeJsonRequest(op, params, { strict: this.handler.strictRequests });
      const result: unknown = await op.invoke(this.handler, decoded, ctx);
      const json = op.encodeJson(result, decoded);
      return json === undefined ? null : json;
    } catch (thrown) {
      const error = A2AError.from(thrown);
      if (ctx.logger) this.failedCalls.set(error, ctx.logger);
      throw error;
    }
  }

  /** Where a unary failure is logged: its call's logger, else the dispatcher's. */
  private callLogger(error: unknown): Logger {
    return (error instanceof A2AError && this.failedCalls.get(error)) || this.logger;
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

/** MethodNotFound, saying so when the name is an A2A v0.3 method this endpoint does not serve. */
function methodNotFound(method: string): A2AError {
  const legacy = v03Method(method);
  const message = legacy
    ? `Method ${method} is an A2A v0.3 method, which this endpoint does not serve; call ${legacy.operation} (A2A 1.0)`
    : `Method ${method} not found`;
  return new A2AError(A2AErrorCode.MethodNotFound, message);
}
