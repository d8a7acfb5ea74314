import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { quoteInput } from '@a2a-polyglot/model';

/**
 * v0.3 gRPC and REST name tasks and push configs by resource name (`tasks/{id}`,
 * `tasks/{id}/pushNotificationConfigs/{configId}`) where v1.0 has plain id fields. These
 * helpers are the one place that builds and reads those names.
 */

const TASK_NAME = /^tasks\/([^/]+)$/;
const PUSH_CONFIG_NAME = /^tasks\/([^/]+)\/pushNotificationConfigs\/([^/]+)$/;
const PUSH_CONFIG_OWNER = /^tasks\/([^/]+)(?:\/pushNotificationConfigs\/?([^/]*))?$/;

/** `tasks/{taskId}`. */
export function taskName(taskId: string): string {
  return `tasks/${taskId}`;
}

/** `tasks/{taskId}/pushNotificationConfigs/{configId}`. */
export function pushConfigName(taskId: string, configId: string): string {
  return `tasks/${taskId}/pushNotificationConfigs/${configId}`;
}

/**
 * The task id of `tasks/{id}`.
 * @throws A2AError InvalidParams naming `field` when the name has another shape (a client
 *   error, answered in the binding's terms, never a crash).
 */
export function parseTaskName(name: string, field = 'name'): string {
  const taskId = TASK_NAME.exec(name)?.[1];
  if (taskId === undefined) throw badName(field, name, 'tasks/{id}');
  return taskId;
}

/**
 * Task id and config id of `tasks/{id}/pushNotificationConfigs/{configId}`.
 * @throws A2AError InvalidParams naming `field` for any other shape.
 */
export function parsePushConfigName(name: string, field = 'name'): { taskId: string; configId: string } {
  const [, taskId, configId] = PUSH_CONFIG_NAME.exec(name) ?? [];
  if (taskId === undefined || configId === undefined) throw badName(field, name, 'tasks/{id}/pushNotificationConfigs/{configId}');
  return { taskId, configId };
}

function badName(field: string, name: string, expected: string): A2AError {
  const description = `expected a resource name of the form ${expected}, got ${quoteInput(name)}`;
  return new A2AError(A2AErrorCode.InvalidParams, `Invalid ${field}: ${description}`, { fieldViolations: [{ field, description }] });
}

/**
 * Task id and (possibly empty) config id of the name inside a v0.3 TaskPushNotificationConfig:
 * `tasks/{id}/pushNotificationConfigs/{configId}`, or without a config id
 * (`tasks/{id}/pushNotificationConfigs/`, what SDK clients send for a config with no id yet,
 * or plain `tasks/{id}`).
 * @throws A2AError InvalidParams naming `field` for any other shape.
 */
export function parsePushConfigOwner(name: string, field = 'name'): { taskId: string; configId: string } {
  const [, taskId, configId = ''] = PUSH_CONFIG_OWNER.exec(name) ?? [];
  if (taskId === undefined) throw badName(field, name, 'tasks/{id}/pushNotificationConfigs/{configId}');
  return { taskId, configId };
}
