import type { CallObserver, EventLog, RequestHandler, TaskStore } from '@a2a-polyglot/core';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { countedEventLog, eventLogCounts, type EventLogCounts } from './counted-event-log.js';
import { createInstruments, DEFAULT_BUCKETS, FIRST_EVENT_BUCKETS, type Instruments, TASK_DURATION_BUCKETS } from './instruments.js';
import { metricsObserver } from './metrics-observer.js';
import { timedTaskStore } from './timed-task-store.js';

/** Options of {@link A2AMetrics}. */
export interface A2AMetricsOptions {
  /** Where the metrics live. Default: a new registry of their own (not prom-client's global one). */
  readonly registry?: Registry;
  /** Also collect prom-client's process and Node.js metrics (`process_*`, `nodejs_*`). Default true. */
  readonly processMetrics?: boolean;
  /** Request and store latency buckets in seconds. Default 0.5 ms … 10 s. */
  readonly buckets?: readonly number[];
  /** `a2a_task_duration_seconds` buckets. Default 10 ms … 10 min. */
  readonly taskDurationBuckets?: readonly number[];
  /** `a2a_task_time_to_first_event_seconds` buckets. Default 1 ms … 1 min. */
  readonly firstEventBuckets?: readonly number[];
}

/**
 * The Prometheus metrics of an A2A service. Why prom-client rather than the OpenTelemetry
 * Prometheus exporter: it is the Node.js library Prometheus users already know, it has no
 * SDK to start, its process metrics match what every Node.js dashboard expects, and the core
 * stays free of both (it reports through {@link CallObserver}).
 *
 * Give {@link observerFor} (or {@link observer}) to every RequestHandler, wrap task stores with
 * {@link taskStore} and event logs with {@link eventLog}, register handlers with {@link watch},
 * and serve {@link scrape} at `GET /metrics`.
 */
export class A2AMetrics {
  readonly registry: Registry;
  /** The observer of an agent without a name (`agent=""`): {@link observerFor}(''). */
  readonly observer: CallObserver;
  private readonly handlers = new Set<RequestHandler>();
  private readonly instruments: Instruments;
  private readonly observers = new Map<string, CallObserver>();
  private readonly logCounts = new Map<string, EventLogCounts>();

  constructor(options: A2AMetricsOptions = {}) {
    const registry = options.registry ?? new Registry();
    this.registry = registry;
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
    this.instruments = createInstruments(
      registry,
      {
        latency: options.buckets ?? DEFAULT_BUCKETS,
        taskDuration: options.taskDurationBuckets ?? TASK_DURATION_BUCKETS,
        firstEvent: options.firstEventBuckets ?? FIRST_EVENT_BUCKETS,
      },
      this.logCounts,
    );
    const handlers = this.handlers;
    new Gauge({
      name: 'a2a_task_runs_active',
      help: 'Tasks whose agent is executing in this process.',
      registers: [registry],
      collect() {
        let active = 0;
        for (const handler of handlers) active += handler.activeRuns;
        this.set(active);
      },
    });
    this.observer = this.observerFor('');
  }

  /**
   * The observer for one agent's RequestHandler (RequestHandlerOptions.observer): requests,
   * latency, streams and task states as {@link observer}, and task run time, time to first
   * event and push deliveries labelled `agent`. One per agent, made once.
   */
  observerFor(agent: string): CallObserver {
    let observer = this.observers.get(agent);
    if (!observer) {
      observer = metricsObserver(this.instruments, agent);
      this.observers.set(agent, observer);
    }
    return observer;
  }

  /** Counts `handler`'s executing tasks in `a2a_task_runs_active`. */
  watch(handler: RequestHandler): void {
    this.handlers.add(handler);
  }

  /** Stops reporting `handler` (an agent removed while the service runs). */
  unwatch(handler: RequestHandler): void {
    this.handlers.delete(handler);
  }

  /** `store`, with each call timed into `a2a_store_operation_duration_seconds`. */
  taskStore(store: TaskStore): TaskStore {
    const latency = this.instruments.storeLatency;
    // series() finds the label set's series in its own map: no cache of one's own here.
    return timedTaskStore(store, (operation, seconds, ok) => latency.series({ operation, outcome: ok ? 'ok' : 'error' }).observe(seconds));
  }

  /**
   * `log` (RequestHandlerOptions.eventLog), counting its events into
   * `a2a_event_log_published_total`, `a2a_event_log_replayed_total` and `a2a_event_log_gaps_total`
   * under `agent` (several logs of one agent add up).
   */
  eventLog(log: EventLog, agent = ''): EventLog {
    let counts = this.logCounts.get(agent);
    if (!counts) {
      counts = eventLogCounts();
      this.logCounts.set(agent, counts);
    }
    return countedEventLog(log, counts);
  }

  /** The exposition for `GET /metrics`: Prometheus text format and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
