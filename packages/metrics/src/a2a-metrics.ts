import {
  A2AErrorCode,
  type BindingName,
  type CallContext,
  type CallObserver,
  type OperationName,
  type OperationOutcome,
  type RequestHandler,
  type TaskStore,
} from '@a2a-polyglot/core';
import { TaskState } from '@a2a-polyglot/model';
import { collectDefaultMetrics, Counter, Gauge, Histogram, type LabelValues, Registry } from 'prom-client';
import { timedTaskStore } from './timed-task-store.js';

/** Options of {@link A2AMetrics}. */
export interface A2AMetricsOptions {
  /** Where the metrics live. Default: a new registry of their own (not prom-client's global one). */
  readonly registry?: Registry;
  /** Also collect prom-client's process and Node.js metrics (`process_*`, `nodejs_*`). Default true. */
  readonly processMetrics?: boolean;
  /** Latency buckets in seconds. Default 0.5 ms … 10 s. */
  readonly buckets?: readonly number[];
}

const DEFAULT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The Prometheus metrics of an A2A service. Why prom-client rather than the OpenTelemetry
 * Prometheus exporter: it is the Node.js library Prometheus users already know, it has no
 * SDK to start, its process metrics match what every Node.js dashboard expects, and the core
 * stays free of both (it reports through {@link CallObserver}).
 *
 * Give {@link observer} to every RequestHandler, wrap task stores with {@link taskStore},
 * register handlers with {@link watch}, and serve {@link scrape} at `GET /metrics`.
 */
export class A2AMetrics {
  readonly registry: Registry;
  /** Report every operation, stream and task state here (RequestHandlerOptions.observer). */
  readonly observer: CallObserver;
  private readonly handlers = new Set<RequestHandler>();
  private readonly storeLatency: Histogram<'operation' | 'outcome'>;

  constructor(options: A2AMetricsOptions = {}) {
    const registry = options.registry ?? new Registry();
    this.registry = registry;
    const buckets = [...(options.buckets ?? DEFAULT_BUCKETS)];
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });

    const requests = new Counter({
      name: 'a2a_requests_total',
      help: 'A2A operations handled, by operation, binding, protocol version and outcome (ok or the A2A error reason).',
      labelNames: ['operation', 'binding', 'version', 'outcome'] as const,
      registers: [registry],
    });
    const latency = new Histogram({
      name: 'a2a_request_duration_seconds',
      help: 'Time to answer a unary A2A operation, or to open the stream of a streaming one.',
      labelNames: ['operation', 'binding', 'version'] as const,
      buckets,
      registers: [registry],
    });
    const openStreams = new Gauge({
      name: 'a2a_open_streams',
      help: 'Event streams currently open, by operation and binding.',
      labelNames: ['operation', 'binding'] as const,
      registers: [registry],
    });
    const streamsOpened = new Counter({
      name: 'a2a_streams_opened_total',
      help: 'Event streams opened, by operation and binding.',
      labelNames: ['operation', 'binding'] as const,
      registers: [registry],
    });
    const states = new Counter({
      name: 'a2a_task_state_transitions_total',
      help: 'Task state changes, by the state entered (TASK_STATE_*).',
      labelNames: ['state'] as const,
      registers: [registry],
    });
    const refusals = new Counter({
      name: 'a2a_rate_limit_refusals_total',
      help: 'Requests refused by a rate limit, by operation (empty for a request refused on arrival, before it was read) and binding.',
      labelNames: ['operation', 'binding'] as const,
      registers: [registry],
    });
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
    this.storeLatency = new Histogram({
      name: 'a2a_store_operation_duration_seconds',
      help: 'Task store calls, by operation (get, save, list, delete) and outcome (ok, error).',
      labelNames: ['operation', 'outcome'] as const,
      buckets,
      registers: [registry],
    });

    // Label values are few and fixed (11 operations, 6 bindings, 2 versions, ~20 reasons): no cardinality risk.
    this.observer = {
      operationStarted(operation: OperationName, ctx: CallContext) {
        const version = ctx.wireVersion ?? '1.0';
        const end = latency.startTimer({ operation, binding: ctx.binding, version });
        return {
          done(outcome: OperationOutcome) {
            end();
            requests.inc({ operation, binding: ctx.binding, version, outcome });
            if (outcome === A2AErrorCode.RateLimited) refusals.inc({ operation, binding: ctx.binding });
          },
          streamOpened() {
            const labels = { operation, binding: ctx.binding };
            streamsOpened.inc(labels);
            openStreams.inc(labels);
            return gaugeDecrement(openStreams, labels);
          },
        };
      },
      taskStateEntered(state: TaskState) {
        states.inc({ state: TaskState[state] ?? String(state) });
      },
      requestRefused(binding: BindingName) {
        // Refused on arrival (a spent address budget): no operation was read yet.
        refusals.inc({ operation: '', binding });
      },
    };
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
    return timedTaskStore(store, (operation, seconds, ok) => this.storeLatency.observe({ operation, outcome: ok ? 'ok' : 'error' }, seconds));
  }

  /** The exposition for `GET /metrics`: Prometheus text format and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/**
 * `() => gauge.dec(labels)`, made outside the observation's closures: a closure made inside them
 * would keep their whole scope (the call context, the latency timer) alive for as long as the
 * stream stays open, about 1 KB per idle stream.
 */
function gaugeDecrement<T extends string>(gauge: Gauge<T>, labels: LabelValues<T>): () => void {
  return () => gauge.dec(labels);
}
