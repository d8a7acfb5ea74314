/**
 * `@a2a-polyglot/core/store` — for authors of a task store, an event log, a push-config store
 * or a cross-instance signal channel (`@a2a-polyglot/stores` is one): the contracts, the
 * in-memory implementations the handler uses by default, and the helpers every
 * implementation must agree on (version conflicts, page tokens, log keys).
 */
export { decodePageToken, isVersionConflict, pageTokenAfter, versionConflict } from './task-store.js';
export type { AbandonedQuery, SaveOptions, StoredTask, TaskLease, TaskPage, TaskQuery, TaskRef, TaskStore } from './task-store.js';
export { inTenantPartition, type TenantPartition } from './tenant-partition.js';
export { DEFAULT_INTERRUPTED_IDLE_MS, DEFAULT_MEMORY_STORE_MAX_BYTES, InMemoryTaskStore, type InMemoryTaskStoreOptions } from './in-memory-task-store.js';
export { taskLogKey, type EventLog, type LoggedEvent, type LogRead, type SealOptions } from './event-log.js';
export { DEFAULT_EVENT_LOG_MAX_BYTES, InMemoryEventLog, type InMemoryEventLogOptions } from './in-memory-event-log.js';
export type { ClaimedRun, QueuedRun, RunQueue } from './run-queue.js';
export { isTaskSignalKind, LocalTaskSignals, type TaskSignal, type TaskSignalKind, type TaskSignals } from './task-signals.js';
export { InMemoryPushConfigStore, type PushConfigStore, type StoredPushConfig } from './push/push-config-store.js';
export { ANONYMOUS_SEND_PRINCIPAL, type IdempotencyStore, type SendClaim, type SendKey, type SendOutcome } from './idempotency-store.js';
export {
  DEFAULT_IDEMPOTENCY_MAX_BYTES,
  DEFAULT_IDEMPOTENCY_MAX_KEYS,
  InMemoryIdempotencyStore,
  type InMemoryIdempotencyStoreOptions,
} from './in-memory-idempotency-store.js';
