import {
  A2AErrorCode,
  type BindingName,
  type CallContext,
  type CallObserver,
  type OperationName,
  type OperationOutcome,
  type PushOutcome,
  type TaskRunObservation,
} from '@a2a-polyglot/core';
import { TaskState } from '@a2a-polyglot/model';
import type { Gauge, LabelValues } from 'prom-client';
import type { Instruments } from './instruments.js';
import type { CounterSeries, HistogramSeries } from './series.js';

/**
 * The CallObserver that turns the core's reports into `instruments`, labelling task runs and
 * push deliveries with `agent`. Label values are few and fixed (11 operations, 6 bindings,
 * 2 versions, ~20 reasons, 9 states, 5 push outcomes, the configured agents): no cardinality
 * risk, so each label set's series is resolved once and kept here (see series.ts: a request
 * then costs a map lookup and a few additions, not prom-client's label hashing).
 */
export function metricsObserver(instruments: Instruments, agent: string): CallObserver {
  const { openStreams, streamsOpened, states, refusals, taskDuration, firstEvent, pushDeliveries } = instruments;
  // Every series is made when first counted: a label set nothing counted is not exposed.
  let firstEventSeries: HistogramSeries | undefined;
  const firstEventOf = (): HistogramSeries => {
    firstEventSeries ??= firstEvent.series({ agent });
    return firstEventSeries;
  };
  // By end state (TaskState); a run that left no state in slot END_NONE.
  const endSeries: HistogramSeries[] = [];
  const endOf = (state: TaskState | undefined): HistogramSeries => {
    const slot = state ?? END_NONE;
    let found = endSeries[slot];
    if (!found) {
      found = taskDuration.series({ agent, state: state === undefined ? 'none' : (TaskState[state] ?? String(state)) });
      endSeries[slot] = found;
    }
    return found;
  };
  const stateSeries: CounterSeries[] = [];
  const stateOf = (state: TaskState): CounterSeries => {
    let found = stateSeries[state];
    if (!found) {
      found = states.series({ state: TaskState[state] ?? String(state) });
      stateSeries[state] = found;
    }
    return found;
  };
  const calls = new Map<string, CallSeries>();
  const callSeries = (operation: OperationName, binding: BindingName, version: string): CallSeries => {
    const key = `${operation}\u0000${binding}\u0000${version}`;
    let found = calls.get(key);
    if (!found) {
      found = new CallSeries(instruments, operation, binding, version);
      calls.set(key, found);
    }
    return found;
  };
  return {
    operationStarted(operation: OperationName, ctx: CallContext) {
      return new CallObservation(callSeries(operation, ctx.binding, ctx.wireVersion ?? '1.0'), openStreams, streamsOpened, refusals);
    },
    taskRunStarted(): TaskRunObservation {
      return new RunObservation(firstEventOf, endOf);
    },
    taskStateEntered(state: TaskState) {
      stateOf(state).inc();
    },
    requestRefused(binding: BindingName) {
      // Refused on arrival (a spent address budget): no operation was read yet.
      refusals.series({ operation: '', binding }).inc();
    },
    pushDelivered(outcome: PushOutcome) {
      pushDeliveries.series({ agent, outcome }).inc();
    },
  };
}

/** The slot of {@link metricsObserver}'s end series for a run that left no state (past every TaskState value). */
const END_NONE = 64;

/** The series of one (operation, binding, version): its latency, its outcomes, its streams. */
class CallSeries {
  readonly latency: HistogramSeries;
  /** One label object per (operation, binding): an open stream keeps it for its whole life (the gauge's decrement). */
  readonly streamLabels: { operation: OperationName; binding: BindingName };
  private readonly outcomes = new Map<OperationOutcome, CounterSeries>();

  constructor(
    private readonly instruments: Instruments,
    private readonly operation: OperationName,
    private readonly binding: BindingName,
    private readonly version: string,
  ) {
    this.latency = instruments.latency.series({ operation, binding, version });
    this.streamLabels = { operation, binding };
  }

  /** The request counter of `outcome`. */
  outcome(outcome: OperationOutcome): CounterSeries {
    let found = this.outcomes.get(outcome);
    if (!found) {
      found = this.instruments.requests.series({ operation: this.operation, binding: this.binding, version: this.version, outcome });
      this.outcomes.set(outcome, found);
    }
    return found;
  }
}

/** One observed operation: its start time, and where its end is counted. */
class CallObservation {
  private readonly started = performance.now();

  constructor(
    private readonly series: CallSeries,
    private readonly openStreams: Instruments['openStreams'],
    private readonly streamsOpened: Instruments['streamsOpened'],
    private readonly refusals: Instruments['refusals'],
  ) {}

  done(outcome: OperationOutcome): void {
    const series = this.series;
    series.latency.observe((performance.now() - this.started) / 1000);
    series.outcome(outcome).inc();
    if (outcome === A2AErrorCode.RateLimited) this.refusals.series(series.streamLabels).inc();
  }

  streamOpened(): () => void {
    const labels = this.series.streamLabels;
    this.streamsOpened.series(labels).inc();
    this.openStreams.inc(labels);
    return gaugeDecrement(this.openStreams, labels);
  }
}

/** One task run: its start time, and where its first event and end are counted. */
class RunObservation implements TaskRunObservation {
  private readonly started = performance.now();

  constructor(
    private readonly firstEventOf: () => HistogramSeries,
    private readonly endOf: (state: TaskState | undefined) => HistogramSeries,
  ) {}

  firstEvent(): void {
    this.firstEventOf().observe((performance.now() - this.started) / 1000);
  }

  ended(_failure?: unknown, state?: TaskState): void {
    this.endOf(state).observe((performance.now() - this.started) / 1000);
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
