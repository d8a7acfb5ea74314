import type { OperationName } from './operation-types.js';

/** Task and context ids found in a request or a result, when it names them (span attributes, log fields). */
export interface TaskIds {
  taskId?: string;
  contextId?: string;
  tenant?: string;
}

/** Operations whose request names its task by `id` (the others use `taskId`; `id` is then a config id). */
const ID_IS_TASK = new Set<OperationName>(['GetTask', 'CancelTask', 'SubscribeToTask']);

/** The ids a decoded request names (a follow-up message names its task and context; a new one none). */
export function requestIds(operation: OperationName, request: unknown): TaskIds {
  const r = (request ?? {}) as { tenant?: string; id?: string; taskId?: string; contextId?: string; message?: { taskId?: string; contextId?: string } };
  return {
    tenant: r.tenant || undefined,
    taskId: (ID_IS_TASK.has(operation) ? r.id : (r.taskId ?? r.message?.taskId)) || undefined,
    contextId: (r.contextId ?? r.message?.contextId) || undefined,
  };
}
