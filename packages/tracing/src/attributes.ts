import type { OperationName, TaskIds } from '@a2a-polyglot/core';

/**
 * The span and attribute names of A2A traces, in one place: the tracing observer writes
 * them, the executor README documents them, tests assert them. Operation spans also carry
 * the OpenTelemetry RPC conventions (`rpc.system`, `rpc.service`, `rpc.method`), so generic
 * RPC dashboards group them without knowing A2A.
 */
export const A2A_ATTRIBUTES = {
  operation: 'a2a.operation',
  binding: 'a2a.binding',
  protocolVersion: 'a2a.protocol.version',
  taskId: 'a2a.task.id',
  contextId: 'a2a.context.id',
  tenant: 'a2a.tenant',
  outcome: 'a2a.outcome',
  errorReason: 'a2a.error.reason',
  taskState: 'a2a.task.state',
  storeOperation: 'a2a.store.operation',
} as const;

/** The span of an operation: `a2a.SendMessage`, `a2a.GetTask`, … */
export function operationSpanName(operation: OperationName): string {
  return `a2a.${operation}`;
}

/** The span of an agent's run for one message (child of the operation that started it). */
export const TASK_RUN_SPAN = 'a2a.task.run';

/** The span event of a task state change; its `a2a.task.state` says which (`TASK_STATE_WORKING`, …). */
export const TASK_STATE_EVENT = 'a2a.task.state';

/** The span of a task store call: `a2a.store.get`, `a2a.store.save`, … */
export function storeSpanName(operation: string): string {
  return `a2a.store.${operation}`;
}

// TaskIds and requestIds live in core (the call logger needs them too); re-exported here for the tracing API.
export { requestIds, type TaskIds } from '@a2a-polyglot/core';

/** The ids a response names: a Task, a SendMessageResponse (task or message), a push config. */
export function resultIds(result: unknown): TaskIds {
  if (!result || typeof result !== 'object') return {};
  const r = result as { payload?: { value?: unknown }; id?: string; taskId?: string; contextId?: string; status?: unknown };
  if (r.payload && typeof r.payload === 'object') return resultIds(r.payload.value);
  const isTask = r.status !== undefined && typeof r.id === 'string';
  return { taskId: (isTask ? r.id : r.taskId) || undefined, contextId: r.contextId || undefined };
}
