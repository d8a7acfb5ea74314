import type { OperationName } from '@a2a-polyglot/core';
import { agentCardFromV03, agentCardToV03 } from './agent-card.js';
import { type FieldRenamer, renameContentFields, renamePushIdFields, renameTaskIdField } from './errors.js';
import { isJsonObject, type JsonObject } from './json-object.js';
import {
  cancelParamsFromV03,
  getTaskParamsFromV03,
  listPushParamsFromV03,
  listPushParamsToV03,
  pushConfigIdParamsFromV03,
  pushConfigIdParamsToV03,
  resubscribeParamsFromV03,
  sendParamsFromV03,
  sendParamsToV03,
  setPushParamsFromV03,
  setPushParamsToV03,
  taskIdParamsToV03,
} from './params.js';
import { taskPushConfigFromV03, taskPushConfigToV03 } from './push-config.js';
import { streamEventFromV03, streamEventToV03, taskFromV03, taskToV03 } from './task.js';

/** The v0.3 JSON-RPC method names (spec §12.1). */
export type V03MethodName =
  | 'message/send'
  | 'message/stream'
  | 'tasks/get'
  | 'tasks/cancel'
  | 'tasks/resubscribe'
  | 'tasks/pushNotificationConfig/set'
  | 'tasks/pushNotificationConfig/get'
  | 'tasks/pushNotificationConfig/list'
  | 'tasks/pushNotificationConfig/delete'
  | 'agent/getAuthenticatedExtendedCard';

/**
 * One v0.3 JSON-RPC method as a translation around a v1.0 operation. Servers use
 * `paramsFromV03` and `resultToV03`; v0.3 clients and drivers use the other two.
 */
export interface V03Method {
  readonly name: V03MethodName;
  /** The v1.0 operation (entry of core's OPERATIONS) that does the work. */
  readonly operation: OperationName;
  /** v0.3 params → v1.0 request JSON, for core's strict decoder. */
  paramsFromV03(params: unknown): unknown;
  /** Field paths of the v1.0 request as the v0.3 client named them (for validation errors). */
  readonly renameField: FieldRenamer;
  /** v1.0 result JSON (a StreamResponse for streaming methods) → v0.3 result. */
  resultToV03(result: unknown): unknown;
  /** v1.0 request JSON → v0.3 params. */
  paramsToV03(request: unknown): unknown;
  /** v0.3 result → v1.0 result JSON (a StreamResponse for streaming methods). */
  resultFromV03(result: unknown): unknown;
}

const same: FieldRenamer = (field) => field;
const taskResult = { resultToV03: taskToV03, resultFromV03: (r: unknown) => taskFromV03(r, 'result') };
const eventResult = { resultToV03: streamEventToV03, resultFromV03: (r: unknown) => streamEventFromV03(r, 'result') };
const pushResult = { resultToV03: taskPushConfigToV03, resultFromV03: (r: unknown) => taskPushConfigFromV03(r, 'result') };

function method(name: V03MethodName, operation: OperationName, rest: Omit<V03Method, 'name' | 'operation'>): V03Method {
  return { name, operation, ...rest };
}

/** Every v0.3 JSON-RPC method, by name. ListTasks has no v0.3 form. */
export const V03_METHODS: Readonly<Record<V03MethodName, V03Method>> = {
  'message/send': method('message/send', 'SendMessage', {
    paramsFromV03: sendParamsFromV03,
    renameField: renameContentFields,
    paramsToV03: sendParamsToV03,
    ...eventResult,
  }),
  'message/stream': method('message/stream', 'SendStreamingMessage', {
    paramsFromV03: sendParamsFromV03,
    renameField: renameContentFields,
    paramsToV03: sendParamsToV03,
    ...eventResult,
  }),
  'tasks/get': method('tasks/get', 'GetTask', { paramsFromV03: getTaskParamsFromV03, renameField: same, paramsToV03: taskIdParamsToV03, ...taskResult }),
  'tasks/cancel': method('tasks/cancel', 'CancelTask', {
    paramsFromV03: cancelParamsFromV03,
    renameField: same,
    paramsToV03: taskIdParamsToV03,
    ...taskResult,
  }),
  'tasks/resubscribe': method('tasks/resubscribe', 'SubscribeToTask', {
    paramsFromV03: resubscribeParamsFromV03,
    renameField: same,
    paramsToV03: taskIdParamsToV03,
    ...eventResult,
  }),
  'tasks/pushNotificationConfig/set': method('tasks/pushNotificationConfig/set', 'CreateTaskPushNotificationConfig', {
    paramsFromV03: setPushParamsFromV03,
    renameField: (field) => (field === 'taskId' ? field : renameContentFields(`pushNotificationConfig.${field}`)),
    paramsToV03: setPushParamsToV03,
    ...pushResult,
  }),
  'tasks/pushNotificationConfig/get': method('tasks/pushNotificationConfig/get', 'GetTaskPushNotificationConfig', {
    paramsFromV03: pushConfigIdParamsFromV03,
    renameField: renamePushIdFields,
    paramsToV03: pushConfigIdParamsToV03,
    ...pushResult,
  }),
  'tasks/pushNotificationConfig/list': method('tasks/pushNotificationConfig/list', 'ListTaskPushNotificationConfigs', {
    paramsFromV03: listPushParamsFromV03,
    renameField: renameTaskIdField,
    paramsToV03: listPushParamsToV03,
    resultToV03: (result) => (isJsonObject(result) && Array.isArray(result.configs) ? result.configs.map(taskPushConfigToV03) : []),
    resultFromV03: (result) => ({ configs: Array.isArray(result) ? result.map((c, i) => taskPushConfigFromV03(c, `result[${i}]`)) : [] }),
  }),
  'tasks/pushNotificationConfig/delete': method('tasks/pushNotificationConfig/delete', 'DeleteTaskPushNotificationConfig', {
    paramsFromV03: pushConfigIdParamsFromV03,
    renameField: renamePushIdFields,
    paramsToV03: pushConfigIdParamsToV03,
    resultToV03: () => null,
    resultFromV03: () => undefined,
  }),
  'agent/getAuthenticatedExtendedCard': method('agent/getAuthenticatedExtendedCard', 'GetExtendedAgentCard', {
    paramsFromV03: () => ({}),
    renameField: same,
    paramsToV03: () => undefined,
    resultToV03: (card) => agentCardToV03(isJsonObject(card) ? card : ({} as JsonObject)),
    resultFromV03: (card) => agentCardFromV03(isJsonObject(card) ? card : ({} as JsonObject)),
  }),
};

/** The v0.3 method of that name, or undefined (a v1.0 name, or an unknown one). */
export function v03Method(name: string): V03Method | undefined {
  return Object.hasOwn(V03_METHODS, name) ? V03_METHODS[name as V03MethodName] : undefined;
}

const BY_OPERATION = new Map<OperationName, V03Method>(Object.values(V03_METHODS).map((m) => [m.operation, m]));

/**
 * The v0.3 method that carries a v1.0 operation, for v0.3 clients and drivers (undefined for
 * ListTasks, which v0.3 cannot express).
 */
export function v03MethodFor(operation: OperationName): V03Method | undefined {
  return BY_OPERATION.get(operation);
}
