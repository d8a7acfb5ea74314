import {
  A2AError,
  A2AErrorCode,
  type CallContext,
  decodeJsonRequest,
  findOperation,
  type Logger,
  type Operation,
  OPERATIONS,
  resumeCursor,
  type ServedHandler,
  type StreamOperation,
  type UnaryOperation,
} from '@a2a-polyglot/core';
import { clipInput } from '@a2a-polyglot/model';
import { v03Method } from '@a2a-polyglot/v03/json';
import { JSONRPCServer, type JSONRPCRequest } from 'json-rpc-2.0';
import { encodeStreamEvent, type JsonRpcRequest, type JsonRpcResponse, jsonRpcSuccess, streamEventTextEncoder } from './codec.js';
import { jsonRpcFailure } from './errors.js';
import type { JsonRpcCallOptions, JsonRpcContextFactory, JsonRpcOutcome } from './outcome.js';

/**
 * How one generation of A2A spells the JSON-RPC binding (the server side of the client's
 * `JsonRpcDialect`): which core operation a method name calls, how params are decoded, and how
 * results, stream events and errors are written. The `JsonRpcDispatcher` keeps the
 * envelope and batches and asks each dialect whether a method name is its own (the names of
 * the two generations do not overlap: `SendMessage` vs `message/send`).
 */
export interface JsonRpcDialect {
  /** Whether `method` is spelled in this generation (v1.0 takes every name: unknown ones are its MethodNotFound). */
  serves(method: string): boolean;
  /** The core operation `method` calls; undefined when it names none. */
  operation(method: string): Operation | undefined;
  /** A unary request outside a batch (`op`: {@link operation} of its method); null for a notification. Never rejects. */
  call(op: UnaryOperation | undefined, request: JsonRpcRequest, contextFor: JsonRpcContextFactory): Promise<JsonRpcResponse | null>;
  /** A unary entry of a batch; null for a notification. Never rejects. */
  callInBatch(op: UnaryOperation | undefined, request: JsonRpcRequest, contextFor: JsonRpcContextFactory): Promise<JsonRpcResponse | null>;
  /** A streaming method: the opened stream, or the response that refuses it. Never rejects. */
  openStream(op: StreamOperation, request: JsonRpcRequest, contextFor: JsonRpcContextFactory, options: JsonRpcCallOptions): Promise<JsonRpcOutcome>;
}

interface ServerParams {
  readonly ctx: CallContext;
}

/**
 * A2A v1.0 over JSON-RPC (spec §3.3): PascalCase method names, ProtoJSON params and results,
 * errors through core's table by `toJsonRpcError`. Unary methods take one of two routes to the
 * same `invokeUnary` (decode → call → encode): a single request with an id calls the
 * operation directly; notifications and batch entries go through a `json-rpc-2.0`
 * JSONRPCServer (one method per operation), which turns a notification's answer, success or
 * failure, into none.
 */
export class V1JsonRpcDialect implements JsonRpcDialect {
  private readonly server: JSONRPCServer<ServerParams>;
  /**
   * The call logger of each failure thrown by a unary operation: the library maps the
   * failure to a response without the call's context, so the failure remembers its call.
   */
  private readonly failedCalls = new WeakMap<A2AError, Logger>();

  constructor(
    private readonly handler: ServedHandler,
    private readonly logger: Logger,
  ) {
    // Logging happens in the mapper, once per failure; the library's default listener is console.warn.
    this.server = new JSONRPCServer<ServerParams>({ errorListener: () => undefined });
    this.server.mapErrorToJSONRPCErrorResponse = (id, error) => jsonRpcFailure(id, error, this.callLogger(error));
    this.server.handleMethodNotFound = async (request: JSONRPCRequest) =>
      request.id === undefined ? null : jsonRpcFailure(request.id, methodNotFound(request.method), this.logger);
    for (const op of Object.values(OPERATIONS)) {
      if (op.kind === 'unary') this.server.addMethod(op.name, (params, { ctx }) => this.invokeUnary(op, params, ctx));
    }
  }

  serves(): boolean {
    return true;
  }

  operation(method: string): Operation | undefined {
    return findOperation(method);
  }

  async call(op: UnaryOperation | undefined, request: JsonRpcRequest, contextFor: JsonRpcContextFactory): Promise<JsonRpcResponse | null> {
    const ctx = contextFor(request);
    // The rule (measured, issue 14 item 6): a request with an id skips json-rpc-2.0, whose
    // downlevelled async wrapping cost ~10 % of a call's instructions; notifications and batch
    // entries stay with the library. test/unary-routes.test.ts checks both routes answer alike.
    if (request.id === undefined) return this.server.receive(request, { ctx });
    const id = request.id;
    if (!op) return jsonRpcFailure(id, methodNotFound(request.method), this.logger);
    // invokeUnary's steps in place (one async layer less on the path every unary call takes).
    try {
      const decoded: unknown = decodeJsonRequest(op, request.params, { strict: this.handler.strictRequests });
      const result: unknown = await op.invoke(this.handler, decoded, ctx);
      return jsonRpcSuccess(id, op.encodeJson(result, decoded));
    } catch (error) {
      return jsonRpcFailure(id, error, ctx.logger ?? this.logger);
    }
  }

  async callInBatch(_op: UnaryOperation | undefined, request: JsonRpcRequest, contextFor: JsonRpcContextFactory): Promise<JsonRpcResponse | null> {
    return this.server.receive(request, { ctx: contextFor(request) });
  }

  async openStream(op: StreamOperation, request: JsonRpcRequest, contextFor: JsonRpcContextFactory, options: JsonRpcCallOptions): Promise<JsonRpcOutcome> {
    if (request.id === undefined) {
      const error = new A2AError(A2AErrorCode.InvalidRequest, `${request.method} streams its answer, so it needs an id (it cannot be a notification)`);
      return { kind: 'response', response: jsonRpcFailure(null, error, this.logger) };
    }
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

  /** Where a unary failure is logged: its call's logger, else the dialect's. */
  private callLogger(error: unknown): Logger {
    return (error instanceof A2AError && this.failedCalls.get(error)) || this.logger;
  }
}

/** MethodNotFound, saying so when the name is an A2A v0.3 method this endpoint does not serve. */
function methodNotFound(method: string): A2AError {
  const legacy = v03Method(method);
  const message = legacy
    ? `Method ${method} is an A2A v0.3 method, which this endpoint does not serve; call ${legacy.operation} (A2A 1.0)`
    : `Method ${clipInput(method)} not found`;
  return new A2AError(A2AErrorCode.MethodNotFound, message);
}
