import { Counter, Gauge, type Registry } from 'prom-client';
import type { EventLogCounts } from './counted-event-log.js';
import { SeriesCounter, SeriesHistogram } from './series.js';

/** Request latency buckets in seconds: 0.5 ms … 10 s. */
export const DEFAULT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Task run time buckets in seconds: 10 ms … 10 min (an echo to a long LLM run with tools). */
export const TASK_DURATION_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
/** Time to first event buckets in seconds: 1 ms … 1 min (an agent's first report: at once, or after a model's first token). */
export const FIRST_EVENT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Bucket choices of {@link createInstruments}. */
export interface InstrumentBuckets {
  readonly latency: readonly number[];
  readonly taskDuration: readonly number[];
  readonly firstEvent: readonly number[];
}

/**
 * Every metric of {@link A2AMetrics}, registered in `registry`. `logCounts` holds each agent's
 * event-log totals, read at scrape time (see {@link EventLogCounts}).
 */
export function createInstruments(registry: Registry, buckets: InstrumentBuckets, logCounts: ReadonlyMap<string, EventLogCounts>) {
  const registers = [registry];
  return {
    requests: new SeriesCounter({
      name: 'a2a_requests_total',
      help: 'A2A operations handled, by operation, binding, protocol version and outcome (ok or the A2A error reason).',
      labelNames: ['operation', 'binding', 'version', 'outcome'] as const,
      registers,
    }),
    latency: new SeriesHistogram({
      name: 'a2a_request_duration_seconds',
      help: 'Time to answer a unary A2A operation, or to open the stream of a streaming one.',
      labelNames: ['operation', 'binding', 'version'] as const,
      buckets: [...buckets.latency],
      registers,
    }),
    openStreams: new Gauge({
      name: 'a2a_open_streams',
      help: 'Event streams currently open, by operation and binding.',
      labelNames: ['operation', 'binding'] as const,
      registers,
    }),
    streamsOpened: new SeriesCounter({
      name: 'a2a_streams_opened_total',
      help: 'Event streams opened, by operation and binding.',
      labelNames: ['operation', 'binding'] as const,
      registers,
    }),
    states: new SeriesCounter({
      name: 'a2a_task_state_transitions_total',
      help: 'Task state changes, by the state entered (TASK_STATE_*).',
      labelNames: ['state'] as const,
      registers,
    }),
    refusals: new SeriesCounter({
      name: 'a2a_rate_limit_refusals_total',
      help: 'Requests refused by a rate limit, by operation (empty for a request refused on arrival, before it was read) and binding.',
      labelNames: ['operation', 'binding'] as const,
      registers,
    }),
    storeLatency: new SeriesHistogram({
      name: 'a2a_store_operation_duration_seconds',
      help: 'Task store calls, by operation (get, save, list, delete) and outcome (ok, error).',
      labelNames: ['operation', 'outcome'] as const,
      buckets: [...buckets.latency],
      registers,
    }),
    taskDuration: new SeriesHistogram({
      name: 'a2a_task_duration_seconds',
      help: 'Run time of a task: from the agent being handed the message until the run ends, by agent and the state it left the task in (TASK_STATE_*; none: answered with a message, or the task was lost to another writer).',
      labelNames: ['agent', 'state'] as const,
      buckets: [...buckets.taskDuration],
      registers,
    }),
    firstEvent: new SeriesHistogram({
      name: 'a2a_task_time_to_first_event_seconds',
      help: "Time from the agent being handed the message to the run's first event (the task, a status or an artifact) or reply reaching its readers, by agent.",
      labelNames: ['agent'] as const,
      buckets: [...buckets.firstEvent],
      registers,
    }),
    pushDeliveries: new SeriesCounter({
      name: 'a2a_push_deliveries_total',
      help: 'Deliveries of one task event to one webhook, by agent and outcome (delivered, rejected: a final non-2xx answer, refused: the address is not allowed, failed: every attempt failed, dropped: the configs could not be read).',
      labelNames: ['agent', 'outcome'] as const,
      registers,
    }),
    logPublished: logCounter(
      registers,
      logCounts,
      'a2a_event_log_published_total',
      'Events appended to the task event log, by agent (an unstreamed task nobody follows is not logged).',
      'published',
    ),
    logReplayed: logCounter(
      registers,
      logCounts,
      'a2a_event_log_replayed_total',
      'Events read back from the task event log by streams, resumes and catch-up reads, by agent.',
      'replayed',
    ),
    logGaps: logCounter(
      registers,
      logCounts,
      'a2a_event_log_gaps_total',
      'Event-log reads that found the events after their cursor gone (evicted or expired); the reader resyncs from the task. By agent.',
      'gaps',
    ),
  };
}

/** The instruments of {@link createInstruments}. */
export type Instruments = ReturnType<typeof createInstruments>;

/** A counter by agent whose values are the event-log totals, copied in at scrape time. */
function logCounter(
  registers: Registry[],
  counts: ReadonlyMap<string, EventLogCounts>,
  name: string,
  help: string,
  field: keyof EventLogCounts,
): Counter<'agent'> {
  return new Counter({
    name,
    help,
    labelNames: ['agent'] as const,
    registers,
    collect() {
      // Totals only grow, so setting the counter to them (reset, then inc) keeps it monotonic.
      this.reset();
      for (const [agent, agentCounts] of counts) this.inc({ agent }, agentCounts[field]);
    },
  });
}
