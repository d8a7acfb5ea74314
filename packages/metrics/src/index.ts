/**
 * @a2a-polyglot/metrics — Prometheus metrics for an A2A service (prom-client): requests,
 * latency and open streams by operation × binding × version × outcome, task state changes,
 * executing tasks, task store latency, and Node.js process metrics. The core reports through
 * its CallObserver seam; this package turns the reports into metrics.
 */
export { A2AMetrics, type A2AMetricsOptions } from './a2a-metrics.js';
export { timedTaskStore, type StoreTiming, type TimedStoreOperation } from './timed-task-store.js';
