import {
  AgentCard,
  CancelTaskRequest,
  clipInput,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  listTasksResponseToJson,
  parseProtoJson,
  ProtoJsonError,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
  type MessageFns,
} from '@a2a-polyglot/model';
import { A2AError } from './a2a-error.js';
import type { CallContext } from './call-context.js';
import { A2AErrorCode } from './error-code.js';
import type { EventStream } from './event-stream.js';
import { bindOperationLogger } from './call-logger.js';
import { observeStream, observeUnary } from './observer.js';
import type { OperationHandler } from './operation-handler.js';
import { runIntercepted, type InterceptedHandler, type OperationCall, type OperationNext } from './operation-interceptor.js';
import type { OperationName } from './operation-name.js';

export type { OperationHandler } from './operation-handler.js';
export * from './operation-interceptor.js';
export type { OperationName } from './operation-name.js';

interface OperationBase<Req> {
  readonly name: OperationName;
  /** Proto message name of the request (for validation messages). */
  readonly requestType: string;
  /** Codec of the request (JSON and binary). */
  readonly request: MessageFns<Req>;
}

/** A request → response operation. `encodeJson` returns undefined for `google.protobuf.Empty`. */
// biome-ignore lint/suspicious/noExplicitAny: the defaults type the mixed OPERATIONS table, whose entries each have their own request and response types; bindings look an entry up by name and pass its decoded request and its result through (gRPC session code reads the result as that operation's response), so `unknown` would force a cast at each of those sites instead
export interface UnaryOperation<Req = any, Res = any> extends OperationBase<Req> {
  readonly kind: 'unary';
  /** Codec of the response (binary bindings). Undefined for Empty. */
  readonly response: MessageFns<Res> | undefined;
  invoke(handler: InterceptedHandler, request: Req, ctx: CallContext): Promise<Res>;
  encodeJson(response: Res, request: Req): unknown;
}

/** A request → stream of StreamResponse operation. */
// biome-ignore lint/suspicious/noExplicitAny: as for UnaryOperation: the default types the mixed OPERATIONS table
export interface StreamOperation<Req = any> extends OperationBase<Req> {
  readonly kind: 'stream';
  open(handler: InterceptedHandler, request: Req, ctx: CallContext, resumeAfterSeq?: number): Promise<EventStream>;
}

/** One entry of {@link OPERATIONS}. */
export type Operation = UnaryOperation | StreamOperation;

/** The JSON encoder of a response codec; `google.protobuf.Empty` (no codec) encodes as undefined. */
function jsonOf<Res>(codec: MessageFns<Res> | undefined): (res: Res) => unknown {
  return codec ? (res) => codec.toJSON(res) : () => undefined;
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

function unary<Req, Res>(
  name: OperationName,
  request: MessageFns<Req>,
  response: MessageFns<Res> | undefined,
  invoke: (h: OperationHandler, req: Req, ctx: CallContext) => Promise<Res>,
  encodeJson: (res: Res, req: Req) => unknown = jsonOf(response),
  requestType: string = `${name}Request`,
): UnaryOperation<Req, Res> {
  // The observer (metrics, traces) is looked up per call, so an unobserved handler pays one property read.
  // The call's logger is narrowed inside the observation, where the operation's span is active.
  const observed = (h: InterceptedHandler, req: Req, ctx: CallContext): Promise<Res> => {
    const observer = h.observer;
    const call = () => {
      bindOperationLogger(ctx, name, req);
      if (!h.interceptors?.length) return invoke(h, req, ctx);
      return intercepted(h, name, req, ctx, undefined, (c) => invoke(h, c.request as Req, c.ctx)) as Promise<Res>;
    };
    return observer ? observeUnary(observer, name, ctx, req, call) : call();
  };
  return { kind: 'unary', name, requestType, request, response, invoke: observed, encodeJson };
}

function stream<Req>(name: OperationName, request: MessageFns<Req>, requestType: string, open: StreamOperation<Req>['open']): StreamOperation<Req> {
  const observed: StreamOperation<Req>['open'] = (h, req, ctx, after) => {
    const observer = h.observer;
    const call = () => {
      bindOperationLogger(ctx, name, req);
      if (!h.interceptors?.length) return open(h, req, ctx, after);
      return intercepted(h, name, req, ctx, after, (c) => open(h, c.request as Req, c.ctx, c.resumeAfterSeq)) as Promise<EventStream>;
    };
    return observer ? observeStream(observer, name, ctx, req, call) : call();
  };
  return { kind: 'stream', name, requestType, request, open: observed };
}

/**
 * The operation table every binding dispatches through: how to decode the request, which
 * handler method to call, how to encode the answer. JSON-RPC and WebSocket look operations up
 * by method name, REST by route, gRPC by RPC name; so the same call reaches the same code on
 * every wire.
 */
export const OPERATIONS: Readonly<Record<OperationName, Operation>> = {
  SendMessage: unary('SendMessage', SendMessageRequest, SendMessageResponse, (h, r, c) => h.sendMessage(r, c)),
  SendStreamingMessage: stream('SendStreamingMessage', SendMessageRequest, 'SendMessageRequest', (h, r, c) => h.sendStreamingMessage(r, c)),
  GetTask: unary('GetTask', GetTaskRequest, Task, (h, r, c) => h.getTask(r, c)),
  ListTasks: unary(
    'ListTasks',
    ListTasksRequest,
    ListTasksResponse,
    (h, r, c) => h.listTasks(r, c),
    (res, req) => listTasksResponseToJson(res, req.includeArtifacts ?? false),
  ),
  CancelTask: unary('CancelTask', CancelTaskRequest, Task, (h, r, c) => h.cancelTask(r, c)),
  SubscribeToTask: stream('SubscribeToTask', SubscribeToTaskRequest, 'SubscribeToTaskRequest', (h, r, c, after) => h.subscribeToTask(r, c, after)),
  CreateTaskPushNotificationConfig: unary(
    'CreateTaskPushNotificationConfig',
    TaskPushNotificationConfig,
    TaskPushNotificationConfig,
    (h, r, c) => h.createTaskPushNotificationConfig(r, c),
    undefined,
    'TaskPushNotificationConfig',
  ),
  GetTaskPushNotificationConfig: unary('GetTaskPushNotificationConfig', GetTaskPushNotificationConfigRequest, TaskPushNotificationConfig, (h, r, c) =>
    h.getTaskPushNotificationConfig(r, c),
  ),
  ListTaskPushNotificationConfigs: unary(
    'ListTaskPushNotificationConfigs',
    ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse,
    (h, r, c) => h.listTaskPushNotificationConfigs(r, c),
  ),
  DeleteTaskPushNotificationConfig: unary(
    'DeleteTaskPushNotificationConfig',
    DeleteTaskPushNotificationConfigRequest,
    undefined,
    (h, r, c) => h.deleteTaskPushNotificationConfig(r, c),
    () => undefined,
  ),
  GetExtendedAgentCard: unary('GetExtendedAgentCard', GetExtendedAgentCardRequest, AgentCard, (h, r, c) => h.getExtendedAgentCard(r, c)),
};

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
export function decodeJsonRequest<Req>(op: OperationBase<Req>, json: unknown, options: DecodeRequestOptions = {}): Req {
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
