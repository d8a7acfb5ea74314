import type { StreamResponse } from '@a2a-polyglot/model';
import {
  A2AError,
  A2AErrorCode,
  decodeJsonRequest,
  type EventStream,
  failedEventStream,
  type Logger,
  type Operation,
  OPERATIONS,
  type ServedHandler,
  resumeCursor,
  streamEventToJson,
  type StreamOperation,
  type UnaryOperation,
} from '@a2a-polyglot/core';
import { inV03Terms, v03Method, type V03Method } from '@a2a-polyglot/v03/json';
import { jsonRpcSuccess, stringifyStreamFrame, type JsonRpcRequest, type JsonRpcResponse } from './codec.js';
import { v03JsonRpcFailure } from './errors.js';
import type { JsonRpcDialect } from './jsonrpc-dialect.js';
import type { JsonRpcCallOptions, JsonRpcContextFactory, JsonRpcOutcome } from './outcome.js';

/**
 * A2A v0.3 over JSON-RPC (spec §12.1–12.2): the v0.3 methods (`message/send`, `tasks/get`,
 * ...) on the JSON-RPC endpoint, as a codec around the same core operations the v1.0 names
 * reach: v0.3 params are translated by `@a2a-polyglot/v03` and decoded by core's strict v1.0
 * decoder, the call context says
 * `wireVersion: '0.3'` (so the core's version check expects no `A2A-Version`, or `0.3`), and
 * results, stream events and errors are written back in v0.3 form.
 *
 * Streaming methods answer with a stream: v0.3 clients (the official SDK among them) accept
 * only `text/event-stream` for `message/stream` and `tasks/resubscribe`, so a failure before
 * the stream opened is sent as its one event, a JSON-RPC error with the request id. Except a
 * rate-limit refusal: that is a plain answer (HTTP 429 with `Retry-After`), as on every other
 * stream of every binding, so clients and proxies back off without reading a body.
 */
export class V03JsonRpcDialect implements JsonRpcDialect {
  constructor(
    private readonly handler: ServedHandler,
    private readonly logger: Logger,
  ) {}

  serves(method: string): boolean {
    return v03Method(method) !== undefined;
  }

  operation(name: string): Operation | undefined {
    const method = v03Method(name);
    return method && OPERATIONS[method.operation];
  }

  /** A unary v0.3 method; null for a notification. The operation is the one the v0.3 method names. */
  async call(_op: UnaryOperation | undefined, request: JsonRpcRequest, contextFor: JsonRpcContextFactory): Promise<JsonRpcResponse | null> {
    try {
      const method = methodOf(request);
      const op = OPERATIONS[method.operation] as UnaryOperation;
      const decoded: unknown = decode(method, op, request.params, this.handler.strictRequests);
      const result: unknown = await op.invoke(this.handler, decoded, contextFor(request, '0.3'));
      return request.id === undefined ? null : jsonRpcSuccess(request.id, method.resultToV03(op.encodeJson(result, decoded)));
    } catch (error) {
      const failure = v03JsonRpcFailure(request.id ?? null, error, this.logger);
      return request.id === undefined ? null : failure;
    }
  }

  /** v0.3 batch entries are served like single requests (no library route to take). */
  callInBatch(op: UnaryOperation | undefined, request: JsonRpcRequest, contextFor: JsonRpcContextFactory): Promise<JsonRpcResponse | null> {
    return this.call(op, request, contextFor);
  }

  /** A streaming v0.3 method: a stream once the request has an id, unless rate-limited. */
  async openStream(op: StreamOperation, request: JsonRpcRequest, contextFor: JsonRpcContextFactory, options: JsonRpcCallOptions): Promise<JsonRpcOutcome> {
    const method = methodOf(request);
    if (request.id === undefined) {
      const error = new A2AError(A2AErrorCode.InvalidRequest, `${request.method} streams its answer, so it needs an id (it cannot be a notification)`);
      return { kind: 'response', response: v03JsonRpcFailure(null, error, this.logger) };
    }
    const id = request.id;
    let stream: EventStream;
    try {
      const resume = op.name === 'SubscribeToTask' ? resumeCursor(options.resumeAfterSeq, 'Last-Event-ID') : undefined;
      stream = await op.open(this.handler, decode(method, op, request.params, this.handler.strictRequests), contextFor(request, '0.3'), resume);
    } catch (error) {
      if (A2AError.from(error).code === A2AErrorCode.RateLimited) return { kind: 'response', response: v03JsonRpcFailure(id, error, this.logger) };
      stream = failedEventStream(error);
    }
    const encodeEvent = (event: StreamResponse) => jsonRpcSuccess(id, method.resultToV03(streamEventToJson(event)));
    return {
      kind: 'stream',
      id,
      method: op.name,
      stream,
      encodeEvent,
      encodeEventText: (event, seq) => stringifyStreamFrame(encodeEvent(event), seq),
      encodeError: (error) => v03JsonRpcFailure(id, error),
    };
  }
}

/** The v0.3 method of a request this dialect {@link V03JsonRpcDialect.serves serves}. */
function methodOf(request: JsonRpcRequest): V03Method {
  const method = v03Method(request.method);
  if (!method) throw new A2AError(A2AErrorCode.Internal, 'The v0.3 dialect was given a method that is not a v0.3 method');
  return method;
}

/**
 * v0.3 params → v1.0 request, through core's decoder (unknown members ignored unless the
 * handler asks for strict requests, as on v1.0 calls); its field paths renamed to the v0.3 ones.
 */
function decode(method: V03Method, op: UnaryOperation | StreamOperation, params: unknown, strict: boolean): unknown {
  try {
    return decodeJsonRequest(op, method.paramsFromV03(params), { strict });
  } catch (error) {
    throw inV03Terms(error, method.renameField);
  }
}
