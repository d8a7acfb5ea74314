/**
 * `@a2a-polyglot/core/observability` — for metrics, tracing and logging integrations
 * (`@a2a-polyglot/metrics` and `@a2a-polyglot/tracing` are two): the observer seam the handler
 * reports every call and task run to, the store wrapper that times store calls, the ids a
 * request names, and the logger contract.
 */
export type { CallObserver, ObservedTask, OperationObservation, OperationOutcome, TaskRunObservation } from './observer.js';
export { combineObservers } from './combine-observers.js';
export { wrapTaskStore, type TaskStoreCall, type TaskStoreWrapper } from './wrapped-task-store.js';
export { requestIds, type TaskIds } from './request-ids.js';
export type { PushOutcome } from './push/push-sender.js';
export { silentLogger, type LogFn, type Logger, type LogLevelName } from './logger.js';
export { lazyChild } from './lazy-logger.js';
