import {
  A2AError,
  A2AErrorCode,
  type CallContext,
  decodeJsonRequest,
  type Logger,
  findOperation,
  OPERATIONS,
  type ServedHandler,
  resumeCursor,
  silentLogger,
  type StreamOperation,
  type UnaryOperation,
} from '@a2a-polyglot/core';
import { clipInput } from '@a2a-polyglot/model';
import { v03Method, type V03Method } from '@a2a-polyglot/v03/json';
import { JSONRPCServer, type JSONRPCRequest } from 'json-rpc-2.0';
import {
  encodeStreamEvent,
  type JsonRpcId,
  type JsonRpcRequest,
  type JsonRpcResponse,
  jsonRpcSuccess,
  streamEventTextEncoder,
  validateEnvelope,
} from './codec.js';
import { jsonRpcFailure } from './errors.js';
import type { JsonRpcCallOptions, JsonRpcContextFactory, JsonRpcOutcome } from './outcome.js';
import { V03JsonRpcDispatch } from './v03-dispatch.js';

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

interface ServerParams {
  readonly ctx: CallContext;
}

/** A v0.3 method name this dispatcher serves, with the dispatch that serves it. */
interface ServedV03Method {
  readonly dispatch: V03JsonRpcDispatch;
  readonly method: V03Method;
}

/**
 * Transport-independent JSON-RPC 2.0 dispatch of the A2A operations: decode → call → encode.
 *
 * Both the HTTP binding and the WebSocket binding (same framing over text frames) feed it
 * parsed JSON messages and get a {@link JsonRpcOutcome} back; neither knows the operations.
 * Streaming methods are intercepted first because they answer with a stream, not a result.
 * Unary methods take one of two routes to the same `invokeUnary` (decode → call → encode),
 * with thrown A2AErrors mapped through core's table by `toJsonRpcError` on both:
 * - a single request with an id, the hot path, calls the operation core's `findOperation`
 *   already found and wraps the answer itself (see `callUnary` for the measured reason);
 * - notifications and batch entries go through a `json-rpc-2.0` JSONRPCServer (one method per
 *   operation), which turns a notification's answer, success or failure, into none.
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
    private readonly handler: ServedHandler,
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
      if (legacy && OPERATIONS[legacy.method.operation].kind === 'stream') return await legacy.dispatch.openStream(legacy.method, request, contextFor, options);
      const op = findOperation(request.method);
      if (op?.kind === 'stream') return await this.openStream(op, request, contextFor, options);
      const response = legacy ? await legacy.dispatch.call(legacy.method, request, contextFor) : await this.callUnary(request, op, contextFor);
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
        if ((legacy ? OPERATIONS[legacy.method.operation] : findOperation(request.method))?.kind === 'stream') {
          const error = new A2AError(A2AErrorCode.InvalidRequest, `${request.method} streams its answer and cannot be part of a batch`);
          return jsonRpcFailure(request.id ?? null, error, this.logger);
        }
        if (legacy) return legacy.dispatch.call(legacy.method, request, contextFor);
        return this.server.receive(request, { ctx: contextFor(request) });
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

  /** The v0.3 method of that name and its dispatch, when this dispatcher serves v0.3 names. */
  private served03(name: string): ServedV03Method | undefined {
    if (!this.v03) return undefined;
    const method = v03Method(name);
    return method ? { dispatch: this.v03, method } : undefined;
  }

  /**
   * One unary v1.0 request outside a batch, `op` being core's operation of that name (none:
   * MethodNotFound); null for a notification.
   *
   * Why a request with an id skips json-rpc-2.0 (measured, issue 14 item 6): on this path the
   * library only looks the method up in a Map and wraps the answer, but it does so through
   * ES5-downlevelled async code (`__awaiter`/`__generator`, a middleware closure and two extra
   * promise hops per call). Measured with the benchmark's unary JSON-RPC call (SendMessage,
   * bench agent in `message` mode), before and after this split:
   * - CPU profile of the HTTP binding (`node --cpu-prof` on the executor with the bench agent,
   *   65 000 requests from 16 keep-alive connections): 2.6 % of the server's busy self time
   *   was in json-rpc-2.0 frames, about 4 µs per request; 0 % after;
   * - instruction counts of `dispatch()` in process (`valgrind --tool=callgrind node
   *   --single-threaded`, 3 000 vs 13 000 sequential calls, difference / 10 000; a rerun
   *   matched to 0.15 %): SendMessage 62 500 instructions per call through the library,
   *   56 900 direct (-9 %); GetTask failing with TaskNotFound 60 000 vs 53 300 (-11 %).
   *   The profile's µs are inflated by the profiler and a shared machine; the counts are the
   *   figure to compare.
   * Notifications and batch entries (`dispatchBatch`) stay with the library: they are rare on
   * the wire, so its cost there does not show, and there it owns what it does right (a
   * notification's answer, even a failure's, is none). test/unary-routes.test.ts checks that
   * both routes answer alike.
   */
  private async callUnary(request: JsonRpcRequest, op: UnaryOperation | undefined, contextFor: JsonRpcContextFactory): Promise<JsonRpcResponse | null> {
    const ctx = contextFor(request);
    if (request.id === undefined) return this.server.receive(request, { ctx });
    const id = request.id;
    if (!op) return jsonRpcFailure(id, methodNotFound(request.method), this.logger);
    try {
      return jsonRpcSuccess(id, await this.invokeUnary(op, request.params, ctx));
    } catch (error) {
      return jsonRpcFailure(id, error, ctx.logger ?? this.logger);
    }
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
  handler: ServedHandler,
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
    : `Method ${clipInput(method)} not found`;
  return new A2AError(A2AErrorCode.MethodNotFound, message);
}
