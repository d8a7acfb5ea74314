import type { TaskState } from '@a2a-polyglot/model';
import { A2AError } from './a2a-error.js';
import type { CallContext } from './call-context.js';
import { A2AErrorCode } from './error-code.js';
import type { EventStream } from './event-stream.js';
import type { LoggedEvent } from './event-log.js';
import type { OperationName } from './operations.js';

/** How an operation ended: `ok`, or the error code it failed with (the ErrorInfo reason). */
export type OperationOutcome = 'ok' | A2AErrorCode;

/**
 * Watches the core at work, for metrics and traces, without the core knowing either: every
 * operation on every binding passes through the OPERATIONS table, which reports here, so
 * each binding is observed the same way and none carries instrumentation code. Without an
 * observer (the default) the operations run exactly as before.
 */
export interface CallObserver {
  /**
   * An operation began on a binding. The returned function is called exactly once: when a
   * unary operation answered or failed, or when a streaming operation opened its stream (or
   * failed to).
   */
  operationStarted(operation: OperationName, ctx: CallContext): (outcome: OperationOutcome) => void;
  /** A stream was handed to the binding; the returned function is called once when it ends. */
  streamOpened?(operation: OperationName, ctx: CallContext): () => void;
  /** A task entered `state` (each applied status change, SUBMITTED on creation included). */
  taskStateEntered?(state: TaskState): void;
}

/** The outcome label of a failure: its A2A code, or Internal for anything that is not an A2AError. */
export function outcomeOf(error: unknown): OperationOutcome {
  return error instanceof A2AError ? error.code : A2AErrorCode.Internal;
}

/** Runs a unary operation under `observer`. */
export function observeUnary<T>(observer: CallObserver, operation: OperationName, ctx: CallContext, run: () => Promise<T>): Promise<T> {
  const done = observer.operationStarted(operation, ctx);
  let result: Promise<T>;
  try {
    result = run();
  } catch (error) {
    done(outcomeOf(error));
    return Promise.reject(error);
  }
  return result.then(
    (value) => {
      done('ok');
      return value;
    },
    (error: unknown) => {
      done(outcomeOf(error));
      throw error;
    },
  );
}

/** Opens a stream operation under `observer`; the stream reports its end. */
export async function observeStream(observer: CallObserver, operation: OperationName, ctx: CallContext, open: () => Promise<EventStream>): Promise<EventStream> {
  const stream = await observeUnary(observer, operation, ctx, open);
  const ended = observer.streamOpened?.(operation, ctx);
  return ended ? new ObservedStream(stream, ended) : stream;
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

  async nextBatch(): Promise<readonly LoggedEvent[] | undefined> {
    const batch = await this.inner.nextBatch();
    if (batch === undefined) this.end();
    return batch;
  }

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
