/**
 * The one list of the A2A operations (spec §4): per operation its request and response
 * codecs and the facts about it that more than one module needs. Every other place that
 * names the operations derives from this table: the `OperationName` union, the
 * `OperationHandler` methods, the interceptor's request and result types, the OPERATIONS
 * dispatch table and the client's method types. A fact about every operation (a field of
 * the table, such as `readOnly`) is a change to this file alone; a new operation is an entry
 * here, and then the compiler asks `RequestHandler` (it implements `OperationHandler`) for
 * its method. Each binding's route to it (REST path, v0.3 name) is the binding's own.
 *
 * Apart from the OPERATIONS table so the modules the table calls into (observers, call
 * logging, request ids) can name an operation, by a type-only import, without importing the
 * table and through it the handler.
 */
import {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  encodeSendMessageResponseJson,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  listTasksResponseToJson,
  type MessageFns,
  SendMessageRequest,
  SendMessageResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-polyglot/model';
import type { CallContext } from './call-context.js';
import type { EventStream } from './event-stream.js';

/** What every operation's entry says. */
interface SpecBase<Req> {
  /** Codec of the request (JSON and binary). */
  readonly request: MessageFns<Req>;
  /** Proto message name of the request (for validation messages). */
  readonly requestType: string;
  /** Reads only: a client may retry it (a write, even an idempotent one, is never retried). */
  readonly readOnly: boolean;
}

/** A request → response operation. */
export interface UnarySpec<Req, Res> extends SpecBase<Req> {
  readonly kind: 'unary';
  /** Codec of the response (binary bindings). Undefined for `google.protobuf.Empty` (`Res` is void). */
  readonly response: MessageFns<Res> | undefined;
  /**
   * JSON of the response (undefined for Empty). A method, so an entry of the mixed table is one
   * of `UnarySpec<unknown, unknown>` (method parameters are compared bivariantly).
   */
  encodeJson(response: Res, request: Req): unknown;
  /**
   * `JSON.stringify` of {@link encodeJson}'s value, written in one walk of the response by the
   * model's direct encoder; present for the hot answers only (SendMessage). Bindings that send
   * the JSON text as it is (REST) use it instead of building the object tree first. A method,
   * as `encodeJson` is.
   */
  encodeJsonText?(response: Res, request: Req): string;
}

/** A request → stream of StreamResponse operation. */
export interface StreamSpec<Req, Resumable extends boolean = boolean> extends SpecBase<Req> {
  readonly kind: 'stream';
  /** Whether the stream resumes after an event number (SSE Last-Event-ID, the resume field of gRPC and WebSocket). */
  readonly resumable: Resumable;
}

/** The JSON encoder of a response codec; `google.protobuf.Empty` (no codec) encodes as undefined. */
function jsonOf<Res>(codec: MessageFns<Res> | undefined): (res: Res) => unknown {
  return codec ? (res) => codec.toJSON(res) : () => undefined;
}

interface Facts<Req, Res> {
  readonly readOnly?: boolean;
  readonly requestType?: string;
  readonly encodeJson?: (response: Res, request: Req) => unknown;
  readonly encodeJsonText?: (response: Res, request: Req) => string;
}

function unary<Req, Res>(name: string, request: MessageFns<Req>, response: MessageFns<Res>, facts: Facts<Req, Res> = {}): UnarySpec<Req, Res> {
  const { readOnly = false, requestType = `${name}Request`, encodeJson = jsonOf(response), encodeJsonText } = facts;
  return { kind: 'unary', request, response, requestType, readOnly, encodeJson, ...(encodeJsonText && { encodeJsonText }) };
}

/** An operation that answers `google.protobuf.Empty`. */
function empty<Req>(name: string, request: MessageFns<Req>): UnarySpec<Req, void> {
  return { kind: 'unary', request, response: undefined, requestType: `${name}Request`, readOnly: false, encodeJson: () => undefined };
}

function stream<Req, Resumable extends boolean>(request: MessageFns<Req>, requestType: string, resumable: Resumable): StreamSpec<Req, Resumable> {
  return { kind: 'stream', request, requestType, readOnly: false, resumable };
}

const read = { readOnly: true } as const;

/** The operations, by their JSON-RPC / gRPC method name (spec §4). */
export const OPERATION_TYPES = {
  SendMessage: unary('SendMessage', SendMessageRequest, SendMessageResponse, { encodeJsonText: (res) => encodeSendMessageResponseJson(res) }),
  SendStreamingMessage: stream(SendMessageRequest, 'SendMessageRequest', false),
  GetTask: unary('GetTask', GetTaskRequest, Task, read),
  ListTasks: unary('ListTasks', ListTasksRequest, ListTasksResponse, {
    ...read,
    encodeJson: (res, req) => listTasksResponseToJson(res, req.includeArtifacts ?? false),
  }),
  CancelTask: unary('CancelTask', CancelTaskRequest, Task),
  SubscribeToTask: stream(SubscribeToTaskRequest, 'SubscribeToTaskRequest', true),
  CreateTaskPushNotificationConfig: unary('CreateTaskPushNotificationConfig', TaskPushNotificationConfig, TaskPushNotificationConfig, {
    requestType: 'TaskPushNotificationConfig',
  }),
  GetTaskPushNotificationConfig: unary('GetTaskPushNotificationConfig', GetTaskPushNotificationConfigRequest, TaskPushNotificationConfig, read),
  ListTaskPushNotificationConfigs: unary(
    'ListTaskPushNotificationConfigs',
    ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse,
    read,
  ),
  DeleteTaskPushNotificationConfig: empty('DeleteTaskPushNotificationConfig', DeleteTaskPushNotificationConfigRequest),
  GetExtendedAgentCard: unary('GetExtendedAgentCard', GetExtendedAgentCardRequest, AgentCard, read),
} as const;

/** The 11 A2A operations, by their JSON-RPC / gRPC method name (spec §4). */
export type OperationName = keyof typeof OPERATION_TYPES;

/** The table entry of operation `N`. */
export type OperationSpec<N extends OperationName> = (typeof OPERATION_TYPES)[N];

/** The request message of operation `N` (of a union of names: the union of their requests). */
export type OperationRequest<N extends OperationName> = N extends unknown ? (OperationSpec<N>['request'] extends MessageFns<infer Req> ? Req : never) : never;

/** The response message of unary operation `N` (void for Empty); the streaming ones answer with events. */
export type OperationResponse<N extends OperationName> = N extends unknown
  ? OperationSpec<N> extends { encodeJson(response: infer Res, request: never): unknown }
    ? Res
    : never
  : never;

/** What operation `N` answers: its response message, or an {@link EventStream} for the streaming ones. */
export type OperationResult<N extends OperationName> = N extends unknown
  ? OperationSpec<N> extends { readonly kind: 'stream' }
    ? EventStream
    : OperationResponse<N>
  : never;

/** The names of the operations that answer with a stream. */
export type StreamOperationName = { [N in OperationName]: OperationSpec<N> extends { readonly kind: 'stream' } ? N : never }[OperationName];

/** The handler method name of operation `N` (`SendMessage` → `sendMessage`). */
export type OperationMethodName<N extends OperationName = OperationName> = Uncapitalize<N>;

/** The handler method of operation `N`: a resumable stream takes the event number to resume after. */
export type OperationMethod<N extends OperationName> =
  OperationSpec<N> extends { readonly resumable: true }
    ? (request: OperationRequest<N>, ctx: CallContext, resumeAfterSeq?: number) => Promise<OperationResult<N>>
    : (request: OperationRequest<N>, ctx: CallContext) => Promise<OperationResult<N>>;

/** The operation methods a handler serves, one per operation, named by {@link OperationMethodName}. */
export type OperationMethods = { [N in OperationName as OperationMethodName<N>]: OperationMethod<N> };

/** The handler method name of an operation, at run time. */
export function operationMethodName<N extends OperationName>(name: N): OperationMethodName<N> {
  return (name.charAt(0).toLowerCase() + name.slice(1)) as OperationMethodName<N>;
}
