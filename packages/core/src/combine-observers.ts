import type { TaskState } from '@a2a-polyglot/model';
import type { A2AError } from './a2a-error.js';
import type { BindingName, CallContext } from './call-context.js';
import type { CallObserver, OperationObservation, OperationOutcome, ObservedTask, TaskRunObservation } from './observer.js';
import type { OperationName } from './operation-types.js';
import type { PushOutcome } from './push/push-sender.js';
import type { TaskRef } from './task-store.js';

/**
 * One observer that reports to each of `observers` (metrics and traces together), so the
 * RequestHandler keeps a single `observer` and knows neither. Undefined entries are skipped;
 * none left ⇒ undefined, so an unobserved handler stays on the unobserved fast path; one left
 * ⇒ that observer itself. Runs nest in order: the first observer's context is the outermost.
 */
export function combineObservers(...observers: ReadonlyArray<CallObserver | undefined>): CallObserver | undefined {
  const all = observers.filter((o): o is CallObserver => o !== undefined);
  if (all.length <= 1) return all[0];
  const stateWatchers = all.filter((o): o is StateWatcher => o.taskStateEntered !== undefined);
  return {
    operationStarted(operation: OperationName, ctx: CallContext, request: unknown): OperationObservation {
      const observations = all.map((o) => o.operationStarted(operation, ctx, request));
      return {
        run: nestedRun(observations),
        done(outcome: OperationOutcome, result?: unknown) {
          for (const observation of observations) observation.done(outcome, result);
        },
        streamOpened() {
          const ends = observations.map((o) => o.streamOpened?.());
          return () => {
            for (const end of ends) end?.();
          };
        },
      };
    },
    taskRunStarted(task: ObservedTask): TaskRunObservation | undefined {
      const observations = all.map((o) => o.taskRunStarted?.(task)).filter((o): o is TaskRunObservation => o !== undefined);
      if (observations.length === 0) return undefined;
      return {
        run: nestedRun(observations),
        firstEvent() {
          for (const observation of observations) observation.firstEvent?.();
        },
        ended(failure?: unknown, state?: TaskState) {
          for (const observation of observations) observation.ended(failure, state);
        },
      };
    },
    taskStateEntered(state: TaskState, task: ObservedTask) {
      for (const observer of stateWatchers) observer.taskStateEntered(state, task);
    },
    requestRefused(binding: BindingName, error: A2AError) {
      for (const observer of all) observer.requestRefused?.(binding, error);
    },
    pushDelivered(outcome: PushOutcome, task: TaskRef) {
      for (const observer of all) observer.pushDelivered?.(outcome, task);
    },
  };
}

/** Runs a call inside every observation's `run`, the first outermost. */
function nestedRun(observations: ReadonlyArray<{ run?<T>(call: () => T): T }>): <T>(call: () => T) => T {
  return <T>(call: () => T): T => {
    let wrapped = call;
    for (let i = observations.length - 1; i >= 0; i--) {
      const observation = observations[i];
      if (!observation?.run) continue;
      const inner = wrapped;
      wrapped = () => runInside(observation, inner);
    }
    return wrapped();
  };
}

/** Runs `call` inside the observation's `run` (a method call, so `run` keeps its `this`). */
function runInside<T>(observation: { run?<U>(call: () => U): U }, call: () => T): T {
  return observation.run ? observation.run(call) : call();
}

/** An observer that watches task states (the only ones {@link combineObservers} reports states to). */
type StateWatcher = CallObserver & Required<Pick<CallObserver, 'taskStateEntered'>>;
