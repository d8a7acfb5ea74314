import type * as v1 from '@a2a-polyglot/model';
import type * as v03 from '@a2a-polyglot/model/v03';
import { messageToV03, messageToV1 } from './message.js';
import { pushConfigToV03, pushConfigToV1 } from './push-config.js';
import { parseTaskName, taskName } from './resource-names.js';

/**
 * The task-level requests between v0.3 and v1.0: SendMessage (the same request for the
 * streaming call), GetTask, CancelTask, TaskSubscription (v1.0 SubscribeToTask) and
 * GetAgentCard (v1.0 GetExtendedAgentCard). Push-config requests are in push-config.ts.
 */

/**
 * v0.3 SendMessage request → v1.0. `blocking` is v1.0's inverted `returnImmediately`; with no
 * configuration at all the call blocks (the v1.0 default, and a2a-python's reading of an
 * absent `blocking`), since the v0.3 proto cannot tell "false" from "not sent". History length
 * 0 is "not set" on the v0.3 wire. An inline push config gets its task id from the core.
 */
export function sendMessageRequestToV1(request: v03.SendMessageRequest): v1.SendMessageRequest {
  const config = request.configuration;
  return {
    tenant: '',
    message: request.request && messageToV1(request.request),
    configuration: config && {
      acceptedOutputModes: config.acceptedOutputModes,
      taskPushNotificationConfig: config.pushNotification && pushConfigToV1(config.pushNotification, ''),
      historyLength: config.historyLength === 0 ? undefined : config.historyLength,
      returnImmediately: !config.blocking,
    },
    metadata: request.metadata,
  };
}

/** v1.0 SendMessage request → v0.3 (always with a configuration, so `blocking` is explicit). */
export function sendMessageRequestToV03(request: v1.SendMessageRequest): v03.SendMessageRequest {
  const config = request.configuration;
  const push = config?.taskPushNotificationConfig;
  return {
    request: request.message && messageToV03(request.message),
    configuration: {
      acceptedOutputModes: config?.acceptedOutputModes ?? [],
      pushNotification: push && pushConfigToV03(push),
      historyLength: config?.historyLength ?? 0,
      blocking: !(config?.returnImmediately ?? false),
    },
    metadata: request.metadata,
  };
}

/** v0.3 GetTask (`name` = `tasks/{id}`, history length 0 = not set) → v1.0. */
export function getTaskRequestToV1(request: v03.GetTaskRequest): v1.GetTaskRequest {
  return { tenant: '', id: parseTaskName(request.name), historyLength: request.historyLength === 0 ? undefined : request.historyLength };
}

/** v1.0 GetTask → v0.3. */
export function getTaskRequestToV03(request: v1.GetTaskRequest): v03.GetTaskRequest {
  return { name: taskName(request.id), historyLength: request.historyLength ?? 0 };
}

/** v0.3 CancelTask → v1.0. */
export function cancelTaskRequestToV1(request: v03.CancelTaskRequest): v1.CancelTaskRequest {
  return { tenant: '', id: parseTaskName(request.name), metadata: undefined };
}

/** v1.0 CancelTask → v0.3 (v0.3 carries no request metadata here). */
export function cancelTaskRequestToV03(request: v1.CancelTaskRequest): v03.CancelTaskRequest {
  return { name: taskName(request.id) };
}

/** v0.3 TaskSubscription → v1.0 SubscribeToTask. */
export function subscribeRequestToV1(request: v03.TaskSubscriptionRequest): v1.SubscribeToTaskRequest {
  return { tenant: '', id: parseTaskName(request.name) };
}

/** v1.0 SubscribeToTask → v0.3 TaskSubscription. */
export function subscribeRequestToV03(request: v1.SubscribeToTaskRequest): v03.TaskSubscriptionRequest {
  return { name: taskName(request.id) };
}

/** v0.3 GetAgentCard → v1.0 GetExtendedAgentCard. */
export function getAgentCardRequestToV1(_request: v03.GetAgentCardRequest): v1.GetExtendedAgentCardRequest {
  return { tenant: '' };
}

/** v1.0 GetExtendedAgentCard → v0.3 GetAgentCard. */
export function getAgentCardRequestToV03(_request: v1.GetExtendedAgentCardRequest): v03.GetAgentCardRequest {
  return {};
}
