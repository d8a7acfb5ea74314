import { A2AError, A2AErrorCode, type Logger, type ServedHandler, silentLogger } from '@a2a-polyglot/core';
import { type JsonRpcId, type JsonRpcResponse, validateEnvelope } from './codec.js';
import { jsonRpcFailure } from './errors.js';
import { type JsonRpcDialect, V1JsonRpcDialect } from './jsonrpc-dialect.js';
import { V03JsonRpcDialect } from './jsonrpc-v03.js';
import type { JsonRpcCallOptions, JsonRpcContextFactory, JsonRpcOutcome } from './outcome.js';

/** Settings of {@link JsonRpcDispatcher}. */
export interface JsonRpcDispatcherOptions {
  readonly logger?: Logger;
  /** Most entries a batch may hold; larger batches are rejected whole with -32600. Default 64. */
  readonly maxBatchSize?: number;
  /**
   * Also serve the A2A v0.3 method names (`message/send`, `tasks/get`, ...) through the v0.3
   * dialect. Default false: only the HTTP binding turns it on, as v0.3 had no WebSocket binding.
   */
  readonly v03Methods?: boolean;
}

/**
 * Transport-independent JSON-RPC 2.0 dispatch of the A2A operations: envelope and batches
 * here, decode → call → encode in the {@link JsonRpcDialect} the method name is spelled in
 * (v1.0 `V1JsonRpcDialect`, v0.3 `V03JsonRpcDialect` when `v03Methods`).
 *
 * Both the HTTP binding and the WebSocket binding (same framing over text frames) feed it
 * parsed JSON messages and get a {@link JsonRpcOutcome} back; neither knows the operations.
 * Streaming methods are intercepted first because they answer with a stream, not a result.
 *
 * The envelope and batches stay here, not in the library: json-rpc-2.0 1.8.1 unwraps a batch
 * with one answer into a bare object (JSON-RPC 2.0 §6 wants an array), rejects a whole batch
 * with a TypeError when one entry is `null`, runs calls whose id is an object or whose method
 * is not a string, and answers an invalid envelope with a bare "Invalid Request" without the
 * ErrorInfo an A2A error carries in `data`. test/library-limits.test.ts shows each case next
 * to our answer (and fails when a library upgrade fixes one, so the split can be revisited).
 */
export class JsonRpcDispatcher {
  private readonly logger: Logger;
  private readonly maxBatchSize: number;
  private readonly v1: JsonRpcDialect;
  private readonly v03: JsonRpcDialect | undefined;

  constructor(handler: ServedHandler, options: JsonRpcDispatcherOptions = {}) {
    this.logger = options.logger ?? silentLogger;
    this.maxBatchSize = options.maxBatchSize ?? 64;
    this.v1 = new V1JsonRpcDialect(handler, this.logger);
    this.v03 = options.v03Methods ? new V03JsonRpcDialect(handler, this.logger) : undefined;
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
      const dialect = this.dialectOf(request.method);
      const op = dialect.operation(request.method);
      if (op?.kind === 'stream') return await dialect.openStream(op, request, contextFor, options);
      const response = await dialect.call(op, request, contextFor);
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
        const dialect = this.dialectOf(request.method);
        const op = dialect.operation(request.method);
        if (op?.kind === 'stream') {
          const error = new A2AError(A2AErrorCode.InvalidRequest, `${request.method} streams its answer and cannot be part of a batch`);
          return jsonRpcFailure(request.id ?? null, error, this.logger);
        }
        return dialect.callInBatch(op, request, contextFor);
      }),
    );
    return { kind: 'batch', responses: responses.filter((r): r is JsonRpcResponse => r !== null) };
  }

  /** The dialect a method name is spelled in: v0.3 when served and the name is one of its, else v1.0. */
  private dialectOf(method: string): JsonRpcDialect {
    return this.v03?.serves(method) ? this.v03 : this.v1;
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
