import { A2AError, codeFromGrpcStatus, codeFromReason } from '@a2a-polyglot/core';
import type { StreamResponse, TaskState } from '@a2a-polyglot/model';
import type { SessionError } from '@a2a-polyglot/model/session';
import type { AsyncQueue } from './grpc-async-queue.js';

/** One numbered event of a session stream. */
export interface SessionStreamEvent {
  /** Position in the task's event log; pass the last one to `subscribe(..., { resumeAfterSeq })`. */
  readonly seq: number;
  readonly event: StreamResponse;
}

/** How a session stream ended normally. */
export interface SessionStreamEnd {
  /** Last task state the stream carried (UNSPECIFIED for a direct Message). */
  readonly state: TaskState;
  readonly lastSeq: number;
}

/** Rebuilds an A2AError from an `error` frame. */
export function errorFromFrame(frame: SessionError): A2AError {
  const code = codeFromReason(frame.reason) ?? codeFromGrpcStatus(frame.code);
  return new A2AError(code, frame.message || undefined, { metadata: frame.metadata, fieldViolations: frame.fieldViolations });
}

/**
 * A stream operation of a session (streaming send or subscribe) as an async iterable.
 * Iteration ends after the server's `end` frame, throws the A2AError of an `error` frame.
 */
export class SessionStream implements AsyncIterable<SessionStreamEvent> {
  /** Number of the last event received (0 until one arrives). */
  lastSeq = 0;
  /** Resolves with the `end` frame; rejects like the iteration does. */
  readonly end: Promise<SessionStreamEnd>;
  private resolveEnd!: (end: SessionStreamEnd) => void;
  private rejectEnd!: (error: A2AError) => void;

  /** @internal */
  constructor(
    readonly correlationId: string,
    private readonly queue: AsyncQueue<SessionStreamEvent>,
    private readonly stop: () => void,
  ) {
    this.end = new Promise((resolve, reject) => {
      this.resolveEnd = resolve;
      this.rejectEnd = reject;
    });
    this.end.catch(() => {}); // the iteration reports the same error
  }

  /** Asks the server to stop this stream (task keeps running); iteration then ends. */
  unsubscribe(): void {
    this.stop();
  }

  [Symbol.asyncIterator](): AsyncIterator<SessionStreamEvent> {
    return this.queue;
  }

  /** @internal */
  deliver(event: SessionStreamEvent): void {
    this.lastSeq = event.seq;
    this.queue.push(event);
  }

  /** @internal */
  finish(end: SessionStreamEnd): void {
    this.resolveEnd(end);
    this.queue.end();
  }

  /** @internal */
  fail(error: A2AError): void {
    this.rejectEnd(error);
    this.queue.fail(error);
  }
}
