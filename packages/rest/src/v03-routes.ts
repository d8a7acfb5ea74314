import { A2AError, A2AErrorCode, decodeJsonRequest, type DecodeRequestOptions } from '@a2a-polyglot/core';
import type {
  AgentCard,
  ListTaskPushNotificationConfigsResponse,
  MessageFns,
  SendMessageResponse,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-polyglot/model';
import * as v03 from '@a2a-polyglot/model/v03';
import { pushConfigName, taskName, V03_SERVED_OPERATIONS as served } from '@a2a-polyglot/v03/proto';
import { routeMatcher, type RestRoute, type RouteMatch } from './routes.js';

/**
 * One A2A v0.3 REST route: the v1.0 operation it runs, its v0.3 request message (validated
 * strictly as the ProtoJSON of `a2a.v1`), and the @a2a-polyglot/v03 converters around the call.
 */
export interface V03RestRoute extends RestRoute {
  /** Full name of the v0.3 request message (`a2a.v1.GetTaskRequest`). */
  readonly requestType: string;
  /** Request fields the path binds (resource names built from `{id}`, `{configId}`). */
  readonly pathFields: (params: Readonly<Record<string, string>>) => Record<string, string>;
  /**
   * The request JSON (path, query and body merged) → the core's v1.0 request: decoded as the
   * v0.3 request message (InvalidParams when it is not one), then converted.
   */
  readonly decode: (json: unknown, params: Readonly<Record<string, string>>, options: DecodeRequestOptions) => unknown;
  /** The core's answer → the v0.3 response JSON (unused by streams). */
  readonly encode: (response: unknown) => unknown;
}

/**
 * A route as the table writes it, typed by its v0.3 request `Req` and the core's answer `Res`,
 * so each converter is checked against the message it really gets.
 */
interface V03RouteSpec<Req, Res> extends RestRoute {
  readonly requestType: string;
  /** The generated codec of the v0.3 request message. */
  readonly request: MessageFns<Req>;
  readonly pathFields: V03RestRoute['pathFields'];
  /** The decoded v0.3 request (and the path parameters) → the core's v1.0 request. */
  readonly toCore: (request: Req, params: Readonly<Record<string, string>>) => unknown;
  readonly encode: (response: Res) => unknown;
}

/**
 * A table entry as the handler sees it. The decoded request reaches `toCore` with its type
 * intact (the codec and the converter are checked together here). The answer is the one
 * place where a type is taken on trust: core's OPERATIONS table does not carry response types,
 * so `Res` is what the table names as the answer of `spec.operation` (core's invoke returns it).
 */
function v03Route<Req, Res>(spec: V03RouteSpec<Req, Res>): V03RestRoute {
  const { request, toCore, encode, ...route } = spec;
  const codec = { name: spec.operation, requestType: spec.requestType, request };
  return {
    ...route,
    decode: (json, params, options) => toCore(decodeJsonRequest(codec, json, options), params),
    encode: (response) => encode(response as Res),
  };
}

/** A path parameter the route's pattern declares (the router captured it, so it is there). */
function pathParam(params: Readonly<Record<string, string>>, name: 'id' | 'configId'): string {
  const value = params[name];
  if (value === undefined) throw new A2AError(A2AErrorCode.Internal, `The route captured no {${name}} path parameter`);
  return value;
}

const noPathFields = (): Record<string, string> => ({});
const byTaskName = (p: Readonly<Record<string, string>>) => ({ name: taskName(pathParam(p, 'id')) });
const byParent = (p: Readonly<Record<string, string>>) => ({ parent: taskName(pathParam(p, 'id')) });
const byConfigName = (p: Readonly<Record<string, string>>) => ({ name: pushConfigName(pathParam(p, 'id'), pathParam(p, 'configId')) });
const noBody = (): undefined => undefined;
const taskJson = (task: Task) => v03.Task.toJSON(served.GetTask.toV03(task));
const pushConfigJson = (config: TaskPushNotificationConfig) => v03.TaskPushNotificationConfig.toJSON(served.GetTaskPushNotificationConfig.toV03(config));

/**
 * The v0.3 REST routes (the `google.api.http` bindings of the v0.3 proto, spec §12.1), all
 * under `/v1/`, without tenants. TaskSubscription is served on GET (proto) and POST (what the
 * a2a-js client sends). ListTasks has no v0.3 route.
 */
export const V03_REST_ROUTES: readonly V03RestRoute[] = [
  v03Route({
    verb: 'POST',
    pattern: '/v1/message:send',
    operation: 'SendMessage',
    status: 200,
    requestType: 'a2a.v1.SendMessageRequest',
    request: v03.SendMessageRequest,
    pathFields: noPathFields,
    toCore: served.SendMessage.toV1,
    encode: (r: SendMessageResponse) => v03.SendMessageResponse.toJSON(served.SendMessage.toV03(r)),
  }),
  v03Route({
    verb: 'POST',
    pattern: '/v1/message:stream',
    operation: 'SendStreamingMessage',
    status: 200,
    requestType: 'a2a.v1.SendMessageRequest',
    request: v03.SendMessageRequest,
    pathFields: noPathFields,
    toCore: served.SendStreamingMessage.toV1,
    encode: noBody,
  }),
  v03Route({
    verb: 'GET',
    pattern: '/v1/tasks/{id}',
    operation: 'GetTask',
    status: 200,
    requestType: 'a2a.v1.GetTaskRequest',
    request: v03.GetTaskRequest,
    pathFields: byTaskName,
    toCore: served.GetTask.toV1,
    encode: taskJson,
  }),
  v03Route({
    verb: 'POST',
    pattern: '/v1/tasks/{id}:cancel',
    operation: 'CancelTask',
    status: 200,
    requestType: 'a2a.v1.CancelTaskRequest',
    request: v03.CancelTaskRequest,
    pathFields: byTaskName,
    toCore: served.CancelTask.toV1,
    encode: taskJson,
  }),
  ...(['GET', 'POST'] as const).map(
    (verb): V03RestRoute =>
      v03Route({
        verb,
        pattern: '/v1/tasks/{id}:subscribe',
        operation: 'SubscribeToTask',
        status: 200,
        requestType: 'a2a.v1.TaskSubscriptionRequest',
        request: v03.TaskSubscriptionRequest,
        pathFields: byTaskName,
        toCore: served.SubscribeToTask.toV1,
        encode: noBody,
      }),
  ),
  v03Route({
    verb: 'POST',
    pattern: '/v1/tasks/{id}/pushNotificationConfigs',
    operation: 'CreateTaskPushNotificationConfig',
    status: 201,
    // Body = the config (its `name` is informative; the path names the task).
    requestType: 'a2a.v1.TaskPushNotificationConfig',
    request: v03.TaskPushNotificationConfig,
    pathFields: noPathFields,
    toCore: (config: v03.TaskPushNotificationConfig, p) =>
      served.CreateTaskPushNotificationConfig.toV1({ parent: taskName(pathParam(p, 'id')), configId: '', config }),
    encode: pushConfigJson,
  }),
  v03Route({
    verb: 'GET',
    pattern: '/v1/tasks/{id}/pushNotificationConfigs',
    operation: 'ListTaskPushNotificationConfigs',
    status: 200,
    requestType: 'a2a.v1.ListTaskPushNotificationConfigRequest',
    request: v03.ListTaskPushNotificationConfigRequest,
    pathFields: byParent,
    toCore: served.ListTaskPushNotificationConfigs.toV1,
    encode: (r: ListTaskPushNotificationConfigsResponse) => v03.ListTaskPushNotificationConfigResponse.toJSON(served.ListTaskPushNotificationConfigs.toV03(r)),
  }),
  v03Route({
    verb: 'GET',
    pattern: '/v1/tasks/{id}/pushNotificationConfigs/{configId}',
    operation: 'GetTaskPushNotificationConfig',
    status: 200,
    requestType: 'a2a.v1.GetTaskPushNotificationConfigRequest',
    request: v03.GetTaskPushNotificationConfigRequest,
    pathFields: byConfigName,
    toCore: served.GetTaskPushNotificationConfig.toV1,
    encode: pushConfigJson,
  }),
  v03Route({
    verb: 'DELETE',
    pattern: '/v1/tasks/{id}/pushNotificationConfigs/{configId}',
    operation: 'DeleteTaskPushNotificationConfig',
    status: 204,
    requestType: 'a2a.v1.DeleteTaskPushNotificationConfigRequest',
    request: v03.DeleteTaskPushNotificationConfigRequest,
    pathFields: byConfigName,
    toCore: served.DeleteTaskPushNotificationConfig.toV1,
    encode: noBody,
  }),
  v03Route({
    verb: 'GET',
    pattern: '/v1/card',
    operation: 'GetExtendedAgentCard',
    status: 200,
    requestType: 'a2a.v1.GetAgentCardRequest',
    request: v03.GetAgentCardRequest,
    pathFields: noPathFields,
    toCore: served.GetExtendedAgentCard.toV1,
    encode: (card: AgentCard) => v03.AgentCard.toJSON(served.GetExtendedAgentCard.toV03(card)),
  }),
];

/** Matches a path relative to the REST base URL against {@link V03_REST_ROUTES}. */
export const matchV03Route: (verb: string, path: string) => RouteMatch<V03RestRoute> = routeMatcher(V03_REST_ROUTES, { tenant: false });
