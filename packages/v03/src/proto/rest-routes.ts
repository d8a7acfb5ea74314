import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import type * as v1 from '@a2a-polyglot/model';
import * as v03 from '@a2a-polyglot/model/v03';

/** One v0.3 REST request: verb, path under the interface URL (with `/v1`), query, JSON body. */
export interface V03RestRequest {
  readonly verb: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** The config a v0.3 create request carries (REQUIRED; `createPushConfigRequestToV03` always sets it). */
function requiredConfig(request: v03.CreateTaskPushNotificationConfigRequest): v03.TaskPushNotificationConfig {
  if (!request.config) {
    throw new A2AError(A2AErrorCode.InvalidParams, 'CreateTaskPushNotificationConfig: config is required', {
      fieldViolations: [{ field: 'config', description: 'is required' }],
    });
  }
  return request.config;
}

const seg = (value: unknown): string => encodeURIComponent(typeof value === 'string' ? value : '');

/**
 * The v0.3 REST routes (spec §12.1, §0 item 16: `{url}/v1/…`) of each operation, from the
 * decoded v1.0 request (path ids) and its v0.3 form (`V03_OPERATIONS[op].toV03`, the body as
 * ProtoJSON of `a2a.v1`). SubscribeToTask is POSTed, as the SDK clients do (servers accept both).
 */
/**
 * One route per operation, from the decoded v1.0 request and its v0.3 form. Declared as
 * methods: each route names the message types of its own operation, while callers hold both
 * requests as `unknown` (method parameters are compared bivariantly).
 */
export interface V03RestRoutes {
  SendMessage?(request: unknown, v03Request: unknown): V03RestRequest;
  SendStreamingMessage?(request: unknown, v03Request: unknown): V03RestRequest;
  GetTask?(request: unknown, v03Request: unknown): V03RestRequest;
  ListTasks?(request: unknown, v03Request: unknown): V03RestRequest;
  CancelTask?(request: unknown, v03Request: unknown): V03RestRequest;
  SubscribeToTask?(request: unknown, v03Request: unknown): V03RestRequest;
  CreateTaskPushNotificationConfig?(request: unknown, v03Request: unknown): V03RestRequest;
  GetTaskPushNotificationConfig?(request: unknown, v03Request: unknown): V03RestRequest;
  ListTaskPushNotificationConfigs?(request: unknown, v03Request: unknown): V03RestRequest;
  DeleteTaskPushNotificationConfig?(request: unknown, v03Request: unknown): V03RestRequest;
  GetExtendedAgentCard?(request: unknown, v03Request: unknown): V03RestRequest;
}

export const V03_REST_ROUTES: Readonly<V03RestRoutes> = {
  SendMessage: (_r, q: v03.SendMessageRequest) => ({ verb: 'POST', path: '/v1/message:send', body: v03.SendMessageRequest.toJSON(q) }),
  SendStreamingMessage: (_r, q: v03.SendMessageRequest) => ({ verb: 'POST', path: '/v1/message:stream', body: v03.SendMessageRequest.toJSON(q) }),
  GetTask: (r: v1.GetTaskRequest, q: v03.GetTaskRequest) => ({
    verb: 'GET',
    path: `/v1/tasks/${seg(r.id)}`,
    query: q.historyLength ? { historyLength: String(q.historyLength) } : undefined,
  }),
  CancelTask: (r: v1.CancelTaskRequest) => ({ verb: 'POST', path: `/v1/tasks/${seg(r.id)}:cancel` }),
  SubscribeToTask: (r: v1.SubscribeToTaskRequest) => ({ verb: 'POST', path: `/v1/tasks/${seg(r.id)}:subscribe` }),
  CreateTaskPushNotificationConfig: (r: v1.TaskPushNotificationConfig, q: v03.CreateTaskPushNotificationConfigRequest) => ({
    verb: 'POST',
    path: `/v1/tasks/${seg(r.taskId)}/pushNotificationConfigs`,
    body: v03.TaskPushNotificationConfig.toJSON(requiredConfig(q)),
  }),
  GetTaskPushNotificationConfig: (r: v1.GetTaskPushNotificationConfigRequest) => ({
    verb: 'GET',
    path: `/v1/tasks/${seg(r.taskId)}/pushNotificationConfigs/${seg(r.id)}`,
  }),
  ListTaskPushNotificationConfigs: (r: v1.ListTaskPushNotificationConfigsRequest, q: v03.ListTaskPushNotificationConfigRequest) => ({
    verb: 'GET',
    path: `/v1/tasks/${seg(r.taskId)}/pushNotificationConfigs`,
    query: { ...(q.pageSize ? { pageSize: String(q.pageSize) } : {}), ...(q.pageToken ? { pageToken: q.pageToken } : {}) },
  }),
  DeleteTaskPushNotificationConfig: (r: v1.DeleteTaskPushNotificationConfigRequest) => ({
    verb: 'DELETE',
    path: `/v1/tasks/${seg(r.taskId)}/pushNotificationConfigs/${seg(r.id)}`,
  }),
  GetExtendedAgentCard: () => ({ verb: 'GET', path: '/v1/card' }),
};
