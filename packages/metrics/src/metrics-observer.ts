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

/**
 * The CallObserver that turns the core's reports into `instruments`, labelling task runs and
 * push deliveries with `agent`. Label values are few and fixed (11 operations, 6 bindings,
 * 2 versions, ~20 reasons, 9 states, 5 push outcomes, the configured agents): no cardinality risk.
 */
export function metricsObserver(instruments: Instruments, agent: string): CallObserver {
  const { requests, latency, openStreams, streamsOpened, states, refusals, taskDuration, firstEvent, pushDeliveries } = instruments;
  const agentLabel = { agent };
  // One label object per end state, made once: a run's end costs no allocation or enum lookup.
  const endLabels: Array<{ agent: string; state: string }> = [];
  const noState = { agent, state: 'none' };
  const endLabel = (state: TaskState | undefined) => {
    if (state === undefined) return noState;
    let labels = endLabels[state];
    if (!labels) {
      labels = { agent, state: TaskState[state] ?? String(state) };
      endLabels[state] = labels;
    }
    return labels;
  };
  // One label object per (operation, binding), made once: an open stream keeps its labels for
  // its whole life (the gauge's decrement), and a bounded set of them serves every stream.
  const openLabels = new Map<string, { operation: OperationName; binding: BindingName }>();
  const streamLabels = (operation: OperationName, binding: BindingName) => {
    const key = `${operation} ${binding}`;
    let labels = openLabels.get(key);
    if (!labels) {
      labels = { operation, binding };
      openLabels.set(key, labels);
    }
    return labels;
  };
  return {
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
          const labels = streamLabels(operation, ctx.binding);
          streamsOpened.inc(labels);
          openStreams.inc(labels);
          return gaugeDecrement(openStreams, labels);
        },
      };
    },
    taskRunStarted(): TaskRunObservation {
      const started = performance.now();
      return {
        firstEvent() {
          firstEvent.observe(agentLabel, (performance.now() - started) / 1000);
        },
        ended(_failure?: unknown, state?: TaskState) {
          taskDuration.observe(endLabel(state), (performance.now() - started) / 1000);
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
    pushDelivered(outcome: PushOutcome) {
      pushDeliveries.inc({ agent, outcome });
    },
  };
}

/**
 * `() => gauge.dec(labels)`, made outside the observation's closures: a closure made inside them
 * would keep their whole scope (the call context, the latency timer) alive for as long as the
 * stream stays open, about 1 KB per idle stream.
 */
function gaugeDecrement<T extends string>(gauge: Gauge<T>, labels: LabelValues<T>): () => void {
  return () => gauge.dec(labels);
}
