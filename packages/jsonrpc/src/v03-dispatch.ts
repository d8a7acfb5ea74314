import type { StreamResponse } from '@a2a-polyglot/model';
import {
  A2AError,
  A2AErrorCode,
  decodeJsonRequest,
  type EventStream,
  failedEventStream,
  type Logger,
  OPERATIONS,
  type ServedHandler,
  resumeCursor,
  streamEventToJson,
  type StreamOperation,
  type UnaryOperation,
} from '@a2a-polyglot/core';
import { inV03Terms, type V03Method } from '@a2a-polyglot/v03/json';
import { jsonRpcSuccess, stringifyStreamFrame, type JsonRpcRequest, type JsonRpcResponse } from './codec.js';
import type { JsonRpcCallOptions, JsonRpcContextFactory, JsonRpcOutcome } from './outcome.js';
import { v03JsonRpcFailure } from './errors.js';

/**
 * The A2A v0.3 methods (`message/send`, `tasks/get`, ...) on the JSON-RPC endpoint, as a codec
 * around the same core operations the v1.0 names reach: v0.3 params are translated by
 * `@a2a-polyglot/v03` and decoded by core's strict v1.0 decoder, the call context says
 * `wireVersion: '0.3'` (so the core's version check expects no `A2A-Version`, or `0.3`), and
 * results, stream events and errors are written back in v0.3 form.
 *
 * Streaming methods answer with a stream: v0.3 clients (the official SDK among them) accept
 * only `text/event-stream` for `message/stream` and `tasks/resubscribe`, so a failure before
 * the stream opened is sent as its one event, a JSON-RPC error with the request id. Except a
 * rate-limit refusal: that is a plain answer (HTTP 429 with `Retry-After`), as on every other
 * stream of every binding, so clients and proxies back off without reading a body.
 */
export class V03JsonRpcDispatch {
  constructor(
    private readonly handler: ServedHandler,
    private readonly logger: Logger,
  ) {}

  /** A unary v0.3 method; null for a notification. Never rejects. */
  async call(method: V03Method, request: JsonRpcRequest, contextFor: JsonRpcContextFactory): Promise<JsonRpcResponse | null> {
    const op = OPERATIONS[method.operation] as UnaryOperation;
    try {
      const decoded: unknown = decode(method, op, request.params, this.handler.strictRequests);
      const result: unknown = await op.invoke(this.handler, decoded, contextFor(request, '0.3'));
      return request.id === undefined ? null : jsonRpcSuccess(request.id, method.resultToV03(op.encodeJson(result, decoded)));
    } catch (error) {
      const failure = v03JsonRpcFailure(request.id ?? null, error, this.logger);
      return request.id === undefined ? null : failure;
    }
  }

  /** A streaming v0.3 method: a stream once the request has an id, unless rate-limited. Never rejects. */
  async openStream(method: V03Method, request: JsonRpcRequest, contextFor: JsonRpcContextFactory, options: JsonRpcCallOptions): Promise<JsonRpcOutcome> {
    const op = OPERATIONS[method.operation] as StreamOperation;
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
