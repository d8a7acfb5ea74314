import type { TaskState } from '@a2a-polyglot/model';
import { A2AError } from './a2a-error.js';
import type { BindingName, CallContext } from './call-context.js';
import { A2AErrorCode } from './error-code.js';
import { type EventStream, type PollResult, WAIT } from './event-stream.js';
import { isThenable } from './serial-queue.js';
import type { LoggedEvent } from './event-log.js';
import type { OperationName } from './operation-types.js';
import type { PushOutcome } from './push/push-sender.js';
import type { TaskRef } from './task-store.js';

/** How an operation ended: `ok`, or the error code it failed with (the ErrorInfo reason). */
export type OperationOutcome = 'ok' | A2AErrorCode;

/** Which task a run or a state change belongs to (traces attach the ids to spans). */
export interface ObservedTask extends TaskRef {
  readonly contextId: string;
}

/** One observed operation, from {@link CallObserver.operationStarted}. */
export interface OperationObservation {
  /**
   * Runs the operation. A tracer runs it inside its span's context, so everything the call
   * causes (store calls, the agent's run, push deliveries, upstream requests) nests under
   * it. Absent: the operation is called directly.
   */
  run?<T>(call: () => T): T;
  /**
   * Called exactly once: when a unary operation answered or failed, or when a streaming
   * operation opened its stream (or failed to). `result` is the response of a unary call that
   * succeeded (undefined for streams and Empty responses), so task and context ids created by
   * the call can be read from it.
   */
  done(outcome: OperationOutcome, result?: unknown): void;
  /** A stream was handed to the binding (after `done('ok')`); the returned function is called once when it ends. */
  streamOpened?(): () => void;
}

/** One observed task run (an agent executing for one message), from {@link CallObserver.taskRunStarted}. */
export interface TaskRunObservation {
  /** Runs the agent (see {@link OperationObservation.run}); absent: called directly. */
  run?<T>(call: () => T): T;
  /**
   * The run's first answer reached its readers: its first event was announced (the new task,
   * or a follow-up's first status or artifact), or the agent replied with a message. Called at
   * most once; what it measures is the agent's time to first event.
   */
  firstEvent?(): void;
  /**
   * The run ended: the task settled (terminal or interrupted) or the run lost it. `failure`:
   * what the agent threw. `state`: the state the run left the task in; undefined when the agent
   * answered with a message (no task) or the run lost the task to another writer.
   */
  ended(failure?: unknown, state?: TaskState): void;
}

/**
 * Watches the core at work, for metrics and traces, without the core knowing either: every
 * operation on every binding passes through the OPERATIONS table, which reports here, so
 * each binding is observed the same way and none carries instrumentation code. Without an
 * observer (the default) the operations run exactly as before. Several observers are
 * composed with {@link combineObservers}.
 */
export interface CallObserver {
  /** An operation began on a binding; `request` is the decoded request message. */
  operationStarted(operation: OperationName, ctx: CallContext, request: unknown): OperationObservation;
  /** An agent is about to execute for a task. */
  taskRunStarted?(task: ObservedTask): TaskRunObservation | undefined;
  /** A task entered `state` (each applied status change, SUBMITTED on creation included). */
  taskStateEntered?(state: TaskState, task: ObservedTask): void;
  /**
   * A request was refused as it arrived, before it was read and so before it named an
   * operation: its address budget was spent (`RequestHandler.chargeArrival`). Such refusals
   * never reach {@link operationStarted}.
   */
  requestRefused?(binding: BindingName, error: A2AError): void;
  /** One event's delivery to one webhook ended (see {@link PushOutcome}; `dropped`: not handed to any webhook). */
  pushDelivered?(outcome: PushOutcome, task: TaskRef): void;
}

/** The outcome label of a failure: its A2A code, or Internal for anything that is not an A2AError. */
export function outcomeOf(error: unknown): OperationOutcome {
  return error instanceof A2AError ? error.code : A2AErrorCode.Internal;
}

/** Runs a unary operation under `observer`. */
export function observeUnary<T>(observer: CallObserver, operation: OperationName, ctx: CallContext, request: unknown, run: () => Promise<T>): Promise<T> {
  const observation = observer.operationStarted(operation, ctx, request);
  return observed(observation, run, true);
}

/** Opens a stream operation under `observer`; the stream reports its end. */
export async function observeStream(
  observer: CallObserver,
  operation: OperationName,
  ctx: CallContext,
  request: unknown,
  open: () => Promise<EventStream>,
): Promise<EventStream> {
  const observation = observer.operationStarted(operation, ctx, request);
  const stream = await observed(observation, open, false);
  const ended = observation.streamOpened?.();
  return ended ? new ObservedStream(stream, ended) : stream;
}

/** Calls `run` (inside the observation's context, when it has one) and reports how it ended. */
function observed<T>(observation: OperationObservation, run: () => Promise<T>, reportResult: boolean): Promise<T> {
  let result: Promise<T>;
  try {
    result = observation.run ? observation.run(run) : run();
  } catch (error) {
    observation.done(outcomeOf(error));
    return Promise.reject(error);
  }
  return result.then(
    (value) => {
      observation.done('ok', reportResult ? value : undefined);
      return value;
    },
    (error: unknown) => {
      observation.done(outcomeOf(error));
      throw error;
    },
  );
}

/** An EventStream that calls `onEnd` once, when it runs out or is closed. */
class ObservedStream implements EventStream {
  private onEnd: (() => void) | undefined;

  constructor(
    private readonly inner: EventStream,
    onEnd: () => void,
  ) {
    this.onEnd = onEnd;
  }

  /** (A `then`, not an async frame: an idle stream keeps its pending read for its whole life.) */
  nextBatch(): Promise<readonly LoggedEvent[] | undefined> {
    return this.inner.nextBatch().then(this.onBatch);
  }

  /** {@link EventStream.poll} through to the observed stream. */
  poll(wake: () => void): PollResult {
    const inner = this.inner;
    if (!inner.poll) return this.nextBatch();
    const next = inner.poll(wake);
    if (next === WAIT) return WAIT;
    if (isThenable(next)) return next.then(this.onBatch);
    return this.onBatch(next);
  }

  private readonly onBatch = (batch: readonly LoggedEvent[] | undefined): readonly LoggedEvent[] | undefined => {
    if (batch === undefined) this.end();
    return batch;
  };

  close(): void {
    this.inner.close();
    this.end();
  }

  [Symbol.asyncIterator](): AsyncIterator<LoggedEvent> {
    const iterator = this.inner[Symbol.asyncIterator]();
    return {
      next: async () => {
        const next = await iterator.next();
        if (next.done) this.end();
        return next;
      },
      return: async () => {
        this.close();
        return { done: true, value: undefined };
      },
    };
  }

  private end(): void {
    const onEnd = this.onEnd;
    this.onEnd = undefined;
    onEnd?.();
  }
}
