import type * as v1 from '@a2a-polyglot/model';
import type * as v03 from '@a2a-polyglot/model/v03';
import { parsePushConfigName, parsePushConfigOwner, parseTaskName, pushConfigName, taskName } from './resource-names.js';

/**
 * Push-notification configs between v0.3 (a config wrapped with its resource name;
 * authentication with a list of `schemes`) and v1.0 (one flat TaskPushNotificationConfig with
 * `taskId`, `id` and a single `scheme`). v0.3's scheme list maps to the first scheme.
 */

/** v0.3 authentication → v1.0 (first scheme). */
function authenticationToV1(auth: v03.AuthenticationInfo | undefined): v1.AuthenticationInfo | undefined {
  return auth && { scheme: auth.schemes[0] ?? '', credentials: auth.credentials };
}

/** v1.0 authentication → v0.3 (a one-scheme list). */
function authenticationToV03(auth: v1.AuthenticationInfo | undefined): v03.AuthenticationInfo | undefined {
  return auth && { schemes: auth.scheme ? [auth.scheme] : [], credentials: auth.credentials };
}

/** v0.3 PushNotificationConfig of task `taskId` → v1.0 TaskPushNotificationConfig. */
export function pushConfigToV1(config: v03.PushNotificationConfig | undefined, taskId: string, id = config?.id ?? ''): v1.TaskPushNotificationConfig {
  return {
    tenant: '',
    id,
    taskId,
    url: config?.url ?? '',
    token: config?.token ?? '',
    authentication: authenticationToV1(config?.authentication),
  };
}

/** v1.0 config → the v0.3 PushNotificationConfig proper (no task). */
export function pushConfigToV03(config: v1.TaskPushNotificationConfig): v03.PushNotificationConfig {
  return { id: config.id, url: config.url, token: config.token, authentication: authenticationToV03(config.authentication) };
}

/** v1.0 config → v0.3 TaskPushNotificationConfig (`tasks/{taskId}/pushNotificationConfigs/{id}`). */
export function taskPushConfigToV03(config: v1.TaskPushNotificationConfig): v03.TaskPushNotificationConfig {
  return { name: pushConfigName(config.taskId, config.id), pushNotificationConfig: pushConfigToV03(config) };
}

/**
 * v0.3 TaskPushNotificationConfig → v1.0. The task comes from the resource name; the id from
 * the config itself, else from the name (see {@link parsePushConfigOwner}).
 */
export function taskPushConfigToV1(config: v03.TaskPushNotificationConfig): v1.TaskPushNotificationConfig {
  const inner = config.pushNotificationConfig;
  const { taskId, configId } = parsePushConfigOwner(config.name);
  return pushConfigToV1(inner, taskId, inner?.id || configId);
}

/**
 * v0.3 CreateTaskPushNotificationConfig request → the v1.0 config to create. The task comes
 * from `parent`; the id from `config_id`, else from the config itself.
 */
export function createPushConfigRequestToV1(request: v03.CreateTaskPushNotificationConfigRequest): v1.TaskPushNotificationConfig {
  const taskId = parseTaskName(request.parent, 'parent');
  const inner = request.config?.pushNotificationConfig;
  return pushConfigToV1(inner, taskId, request.configId || inner?.id || '');
}

/** v1.0 config to create → v0.3 CreateTaskPushNotificationConfig request. */
export function createPushConfigRequestToV03(config: v1.TaskPushNotificationConfig): v03.CreateTaskPushNotificationConfigRequest {
  return { parent: taskName(config.taskId), configId: config.id, config: taskPushConfigToV03(config) };
}

/** v0.3 Get request (`tasks/{t}/pushNotificationConfigs/{c}`) → v1.0. */
export function getPushConfigRequestToV1(request: v03.GetTaskPushNotificationConfigRequest): v1.GetTaskPushNotificationConfigRequest {
  const { taskId, configId } = parsePushConfigName(request.name);
  return { tenant: '', taskId, id: configId };
}

/** v1.0 Get request → v0.3. */
export function getPushConfigRequestToV03(request: v1.GetTaskPushNotificationConfigRequest): v03.GetTaskPushNotificationConfigRequest {
  return { name: pushConfigName(request.taskId, request.id) };
}

/** v0.3 Delete request → v1.0. */
export function deletePushConfigRequestToV1(request: v03.DeleteTaskPushNotificationConfigRequest): v1.DeleteTaskPushNotificationConfigRequest {
  const { taskId, configId } = parsePushConfigName(request.name);
  return { tenant: '', taskId, id: configId };
}

/** v1.0 Delete request → v0.3. */
export function deletePushConfigRequestToV03(request: v1.DeleteTaskPushNotificationConfigRequest): v03.DeleteTaskPushNotificationConfigRequest {
  return { name: pushConfigName(request.taskId, request.id) };
}

/** v0.3 List request (`parent` = `tasks/{id}`) → v1.0. */
export function listPushConfigsRequestToV1(request: v03.ListTaskPushNotificationConfigRequest): v1.ListTaskPushNotificationConfigsRequest {
  return { tenant: '', taskId: parseTaskName(request.parent, 'parent'), pageSize: request.pageSize, pageToken: request.pageToken };
}

/** v1.0 List request → v0.3. */
export function listPushConfigsRequestToV03(request: v1.ListTaskPushNotificationConfigsRequest): v03.ListTaskPushNotificationConfigRequest {
  return { parent: taskName(request.taskId), pageSize: request.pageSize, pageToken: request.pageToken };
}

/** v0.3 List response → v1.0. */
export function listPushConfigsResponseToV1(response: v03.ListTaskPushNotificationConfigResponse): v1.ListTaskPushNotificationConfigsResponse {
  return { configs: response.configs.map(taskPushConfigToV1), nextPageToken: response.nextPageToken };
}

/** v1.0 List response → v0.3. */
export function listPushConfigsResponseToV03(response: v1.ListTaskPushNotificationConfigsResponse): v03.ListTaskPushNotificationConfigResponse {
  return { configs: response.configs.map(taskPushConfigToV03), nextPageToken: response.nextPageToken };
}
