import { messageFromV03, messageToV03 } from './content.js';
import { isJsonObject, v03Violation, withoutKeys, type JsonObject } from './json-object.js';
import { pushConfigFromV03, pushConfigToV03 } from './push-config.js';

/**
 * Request params of the v0.3 JSON-RPC methods (spec §12.2) ⇄ v1.0 request JSON. The v0.3 →
 * v1.0 direction feeds the strict v1.0 decoder; the other one is for v0.3 clients and drivers.
 * Members v0.3 allowed but v1.0 has no place for (`metadata` of tasks/get, of the push-config
 * calls and of tasks/resubscribe) are dropped.
 */

function paramsObject(params: unknown): JsonObject {
  if (params === undefined || params === null) return {};
  if (!isJsonObject(params)) throw v03Violation('params', 'must be an object');
  return params;
}

/**
 * `MessageSendParams` → SendMessageRequest. `blocking` is inverted into `returnImmediately`;
 * an absent `blocking` means blocking (the v0.3 spec leaves it open; a2a-python and most
 * clients expect an answer that waits, spec §0 item 19).
 */
export function sendParamsFromV03(params: unknown): JsonObject {
  const p = paramsObject(params);
  const config = p.configuration;
  let configuration: unknown = config;
  if (isJsonObject(config)) {
    if (config.blocking !== undefined && typeof config.blocking !== 'boolean') throw v03Violation('configuration.blocking', 'must be a boolean');
    configuration = withoutKeys(config, ['blocking', 'pushNotificationConfig'], {
      taskPushNotificationConfig:
        config.pushNotificationConfig === undefined ? undefined : pushConfigFromV03(config.pushNotificationConfig, 'configuration.pushNotificationConfig'),
      returnImmediately: config.blocking === false ? true : undefined,
    });
  }
  return withoutKeys(p, ['message', 'configuration'], { message: messageFromV03(p.message, 'message'), configuration });
}

/** SendMessageRequest → `MessageSendParams` (with an explicit `blocking`, spec §0 item 19). */
export function sendParamsToV03(request: unknown): JsonObject {
  const r = isJsonObject(request) ? request : {};
  const c = isJsonObject(r.configuration) ? r.configuration : {};
  const configuration = withoutKeys(c, ['taskPushNotificationConfig', 'returnImmediately'], {
    pushNotificationConfig: c.taskPushNotificationConfig === undefined ? undefined : pushConfigToV03(c.taskPushNotificationConfig),
    blocking: c.returnImmediately !== true,
  });
  return withoutKeys(r, ['tenant', 'message', 'configuration'], { message: r.message === undefined ? undefined : messageToV03(r.message), configuration });
}

/** `TaskQueryParams {id, historyLength?, metadata?}` → GetTaskRequest. */
export function getTaskParamsFromV03(params: unknown): JsonObject {
  return withoutKeys(paramsObject(params), ['metadata']);
}

/** `TaskIdParams {id, metadata?}` of tasks/cancel → CancelTaskRequest (same members). */
export function cancelParamsFromV03(params: unknown): JsonObject {
  return withoutKeys(paramsObject(params), []);
}

/** `TaskIdParams` of tasks/resubscribe → SubscribeToTaskRequest. */
export function resubscribeParamsFromV03(params: unknown): JsonObject {
  return withoutKeys(paramsObject(params), ['metadata']);
}

/** A v1.0 request holding a task `id` (GetTask, CancelTask, SubscribeToTask) → v0.3 params. */
export function taskIdParamsToV03(request: unknown): JsonObject {
  return withoutKeys(isJsonObject(request) ? request : {}, ['tenant']);
}

/**
 * tasks/pushNotificationConfig/set `{taskId, pushNotificationConfig}` → the v1.0
 * TaskPushNotificationConfig. A config without an id gets the task id as its id, as v0.3
 * servers did, so a later get that names only the task finds it.
 */
export function setPushParamsFromV03(params: unknown): JsonObject {
  const p = paramsObject(params);
  const inner = pushConfigFromV03(p.pushNotificationConfig, 'pushNotificationConfig');
  if (!isJsonObject(inner)) throw v03Violation('pushNotificationConfig', 'is required and must be an object');
  return withoutKeys(p, ['pushNotificationConfig'], { ...inner, id: inner.id ?? p.taskId });
}

/** TaskPushNotificationConfig → tasks/pushNotificationConfig/set params. */
export function setPushParamsToV03(request: unknown): JsonObject {
  const r = isJsonObject(request) ? request : {};
  return { taskId: r.taskId ?? '', pushNotificationConfig: withoutKeys(pushConfigToV03(r), [], { id: r.id || undefined }) };
}

/**
 * tasks/pushNotificationConfig/get|delete `{id, pushNotificationConfigId?}` → `{taskId, id}`.
 * Without a config id, get means the task's default config, whose id is the task id.
 */
export function pushConfigIdParamsFromV03(params: unknown): JsonObject {
  const p = paramsObject(params);
  return withoutKeys(p, ['id', 'pushNotificationConfigId', 'metadata'], { taskId: p.id, id: p.pushNotificationConfigId ?? p.id });
}

/** `{taskId, id}` → `{id, pushNotificationConfigId}`. */
export function pushConfigIdParamsToV03(request: unknown): JsonObject {
  const r = isJsonObject(request) ? request : {};
  return { id: r.taskId ?? '', pushNotificationConfigId: r.id ?? '' };
}

/**
 * tasks/pushNotificationConfig/list `{id}` → ListTaskPushNotificationConfigsRequest. v0.3 has no
 * paging: the core answers a v0.3 call with every config of the task.
 */
export function listPushParamsFromV03(params: unknown): JsonObject {
  const p = paramsObject(params);
  return withoutKeys(p, ['id', 'metadata'], { taskId: p.id });
}

/** ListTaskPushNotificationConfigsRequest → `{id}`. */
export function listPushParamsToV03(request: unknown): JsonObject {
  const r = isJsonObject(request) ? request : {};
  return { id: r.taskId ?? '' };
}
