import { clipInput, parseProtoJson, ProtoJsonError, StreamResponse } from '@a2a-polyglot/model';
import { A2AError } from './a2a-error.js';
import type { CallContext } from './call-context.js';
import { A2AErrorCode } from './error-code.js';
import type { EventStream } from './event-stream.js';
import { bindOperationLogger } from './call-logger.js';
import { observeStream, observeUnary } from './observer.js';
import type { OperationHandler } from './operation-handler.js';
import { runIntercepted, type InterceptedHandler, type OperationCall, type OperationNext } from './operation-interceptor.js';
import { OPERATION_TYPES, operationMethodName, type OperationName, type StreamSpec, type UnarySpec } from './operation-types.js';

export type { OperationHandler } from './operation-handler.js';
export * from './operation-interceptor.js';
export * from './operation-types.js';

/** A request → response operation. `encodeJson` returns undefined for `google.protobuf.Empty`. */
// biome-ignore lint/suspicious/noExplicitAny: the defaults type the mixed OPERATIONS table, whose entries each have their own request and response types; bindings look an entry up by name and pass its decoded request and its result through (gRPC session code reads the result as that operation's response), so `unknown` would force a cast at each of those sites instead
export interface UnaryOperation<Req = any, Res = any> extends UnarySpec<Req, Res> {
  readonly name: OperationName;
  invoke(handler: InterceptedHandler, request: Req, ctx: CallContext): Promise<Res>;
}

/** A request → stream of StreamResponse operation. */
// biome-ignore lint/suspicious/noExplicitAny: as for UnaryOperation: the default types the mixed OPERATIONS table
export interface StreamOperation<Req = any> extends StreamSpec<Req> {
  readonly name: OperationName;
  open(handler: InterceptedHandler, request: Req, ctx: CallContext, resumeAfterSeq?: number): Promise<EventStream>;
}

/** One entry of {@link OPERATIONS}. */
export type Operation = UnaryOperation | StreamOperation;

/** The handler's method of operation `name`, called as a method (`resumeAfterSeq` only for a resumable stream). */
type Dispatch = (h: OperationHandler, request: unknown, ctx: CallContext, resumeAfterSeq?: number) => Promise<unknown>;

function dispatcher(name: OperationName, resumable: boolean): Dispatch {
  const method = operationMethodName(name);
  type Untyped = (request: unknown, ctx: CallContext, resumeAfterSeq?: number) => Promise<unknown>;
  return resumable
    ? (h, request, ctx, after) => (h[method] as Untyped).call(h, request, ctx, after)
    : (h, request, ctx) => (h[method] as Untyped).call(h, request, ctx);
}

/** A call through the handler's interceptors, ending in the table entry's own call (`last`). */
function intercepted(
  h: InterceptedHandler,
  operation: OperationName,
  request: unknown,
  ctx: CallContext,
  resumeAfterSeq: number | undefined,
  last: (call: OperationCall) => Promise<unknown>,
): Promise<unknown> {
  const call = { operation, request, ctx, handler: h, ...(resumeAfterSeq !== undefined && { resumeAfterSeq }) } as OperationCall;
  return runIntercepted(h.interceptors, call, last as OperationNext);
}

function unary(name: OperationName, spec: UnarySpec<unknown, unknown>): UnaryOperation {
  const invoke = dispatcher(name, false);
  // The observer (metrics, traces) is looked up per call, so an unobserved handler pays one property read.
  // The call's logger is narrowed inside the observation, where the operation's span is active.
  const observed = (h: InterceptedHandler, req: unknown, ctx: CallContext): Promise<unknown> => {
    const observer = h.observer;
    const call = () => {
      bindOperationLogger(ctx, name, req);
      if (!h.interceptors?.length) return invoke(h, req, ctx);
      return intercepted(h, name, req, ctx, undefined, (c) => invoke(h, c.request, c.ctx));
    };
    return observer ? observeUnary(observer, name, ctx, req, call) : call();
  };
  return { ...spec, name, invoke: observed };
}

function stream(name: OperationName, spec: StreamSpec<unknown>): StreamOperation {
  const open = dispatcher(name, spec.resumable) as (h: OperationHandler, request: unknown, ctx: CallContext, after?: number) => Promise<EventStream>;
  const observed: StreamOperation['open'] = (h, req, ctx, after) => {
    const observer = h.observer;
    const call = () => {
      bindOperationLogger(ctx, name, req);
      if (!h.interceptors?.length) return open(h, req, ctx, after);
      return intercepted(h, name, req, ctx, after, (c) => open(h, c.request, c.ctx, c.resumeAfterSeq)) as Promise<EventStream>;
    };
    return observer ? observeStream(observer, name, ctx, req, call) : call();
  };
  return { ...spec, name, open: observed };
}

/**
 * The operation table every binding dispatches through: how to decode the request, which
 * handler method to call, how to encode the answer. JSON-RPC and WebSocket look operations up
 * by method name, REST by route, gRPC by RPC name; so the same call reaches the same code on
 * every wire. Built from {@link OPERATION_TYPES}: each entry calls the handler method of its name.
 */
export const OPERATIONS: Readonly<Record<OperationName, Operation>> = Object.fromEntries(
  (Object.keys(OPERATION_TYPES) as OperationName[]).map((name) => {
    const spec: UnarySpec<unknown, unknown> | StreamSpec<unknown> = OPERATION_TYPES[name];
    return [name, spec.kind === 'unary' ? unary(name, spec) : stream(name, spec)];
  }),
) as Record<OperationName, Operation>;

/**
 * The operation of that method name, or undefined: an own-property lookup, so names such as
 * `toString` or `__proto__` never resolve to something that is not an operation. For
 * bindings that answer an unknown name in their own terms.
 */
export function findOperation(name: string): Operation | undefined {
  return Object.hasOwn(OPERATIONS, name) ? OPERATIONS[name as OperationName] : undefined;
}

/** Looks an operation up by its method name; unknown ⇒ MethodNotFound. */
export function operationByName(name: string): Operation {
  const op = findOperation(name);
  if (!op) throw new A2AError(A2AErrorCode.MethodNotFound, `Method ${clipInput(name)} not found`);
  return op;
}

/** How {@link decodeJsonRequest} treats members the request message does not have. */
export interface DecodeRequestOptions {
  /**
   * Reject unknown members (InvalidParams, one field violation each) instead of dropping
   * them. Default false, because a receiver SHOULD ignore unknown fields (ProtoJSON rules,
   * spec §6.1): a client on a newer minor version that adds a field must keep working.
   * Bindings pass the handler's `RequestHandler.strictRequests`, so one setting covers
   * every JSON wire.
   */
  readonly strict?: boolean;
}

/**
 * Decodes JSON params as the operation's request message: wrong types, bad enum values and
 * the like ⇒ InvalidParams with one field violation per problem; members the message does
 * not have are dropped (never reaching the model), or rejected with `strict`. Absent params
 * read as `{}`.
 */
export function decodeJsonRequest<Req>(op: Pick<UnarySpec<Req, unknown>, 'request' | 'requestType'>, json: unknown, options: DecodeRequestOptions = {}): Req {
  try {
    return parseProtoJson(op.requestType, op.request, json === undefined || json === null ? {} : json, { ignoreUnknownFields: !options.strict });
  } catch (error) {
    if (error instanceof ProtoJsonError) {
      throw new A2AError(A2AErrorCode.InvalidParams, error.message, { fieldViolations: error.violations });
    }
    throw error;
  }
}

/** JSON of one stream event (SSE `data:`, WebSocket frame, push body). */
export function streamEventToJson(event: StreamResponse): unknown {
  return StreamResponse.toJSON(event);
}
