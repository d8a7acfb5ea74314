/**
 * @a2a-polyglot/metrics — Prometheus metrics for an A2A service (prom-client): requests,
 * latency and open streams by operation × binding × version × outcome, task state changes,
 * task run time by agent and final state, time to first event, push deliveries by outcome,
 * event-log publish and replay counts, executing tasks, task store latency, and Node.js
 * process metrics. The core reports through its CallObserver seam; this package turns the
 * reports into metrics.
 */
export { A2AMetrics, type A2AMetricsOptions } from './a2a-metrics.js';
export { countedEventLog, eventLogCounts, type EventLogCounts } from './counted-event-log.js';
export { DEFAULT_BUCKETS, FIRST_EVENT_BUCKETS, TASK_DURATION_BUCKETS } from './instruments.js';
export { timedTaskStore, type StoreTiming, type TimedStoreOperation } from './timed-task-store.js';
