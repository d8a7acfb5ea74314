import type { OperationName } from '@a2a-polyglot/core';
import * as v03 from '@a2a-polyglot/model/v03';

/** One v0.3 REST request: verb, path under the interface URL (with `/v1`), query, JSON body. */
export interface V03RestRequest {
  readonly verb: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

const seg = (value: unknown): string => encodeURIComponent(typeof value === 'string' ? value : '');

/**
 * The v0.3 REST routes (spec §12.1, §0 item 16: `{url}/v1/…`) of each operation, from the
 * decoded v1.0 request (path ids) and its v0.3 form (`V03_OPERATIONS[op].toV03`, the body as
 * ProtoJSON of `a2a.v1`). SubscribeToTask is POSTed, as the SDK clients do (servers accept both).
 */
export const V03_REST_ROUTES: Readonly<Partial<Record<OperationName, (request: any, v03Request: any) => V03RestRequest>>> = {
  SendMessage: (_r, q) => ({ verb: 'POST', path: '/v1/message:send', body: v03.SendMessageRequest.toJSON(q) }),
  SendStreamingMessage: (_r, q) => ({ verb: 'POST', path: '/v1/message:stream', body: v03.SendMessageRequest.toJSON(q) }),
  GetTask: (r, q: v03.GetTaskRequest) => ({
    verb: 'GET',
    path: `/v1/tasks/${seg(r.id)}`,
    query: q.historyLength ? { historyLength: String(q.historyLength) } : undefined,
  }),
  CancelTask: (r) => ({ verb: 'POST', path: `/v1/tasks/${seg(r.id)}:cancel` }),
  SubscribeToTask: (r) => ({ verb: 'POST', path: `/v1/tasks/${seg(r.id)}:subscribe` }),
  CreateTaskPushNotificationConfig: (r, q: v03.CreateTaskPushNotificationConfigRequest) => ({
    verb: 'POST',
    path: `/v1/tasks/${seg(r.taskId)}/pushNotificationConfigs`,
    body: v03.TaskPushNotificationConfig.toJSON(q.config!),
  }),
  GetTaskPushNotificationConfig: (r) => ({ verb: 'GET', path: `/v1/tasks/${seg(r.taskId)}/pushNotificationConfigs/${seg(r.id)}` }),
  ListTaskPushNotificationConfigs: (r, q: v03.ListTaskPushNotificationConfigRequest) => ({
    verb: 'GET',
    path: `/v1/tasks/${seg(r.taskId)}/pushNotificationConfigs`,
    query: { ...(q.pageSize ? { pageSize: String(q.pageSize) } : {}), ...(q.pageToken ? { pageToken: q.pageToken } : {}) },
  }),
  DeleteTaskPushNotificationConfig: (r) => ({ verb: 'DELETE', path: `/v1/tasks/${seg(r.taskId)}/pushNotificationConfigs/${seg(r.id)}` }),
  GetExtendedAgentCard: () => ({ verb: 'GET', path: '/v1/card' }),
};
