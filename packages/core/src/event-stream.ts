import type { StreamResponse, Task } from '@a2a-polyglot/model';
import type { EventLog, LoggedEvent } from './event-log.js';
import { eventState } from './task-events.js';
import { isSettled } from './task-state.js';

/**
 * A stream of numbered events for one response (SendStreamingMessage, SubscribeToTask).
 * Bindings iterate it and must call {@link close} when their client goes away; that releases
 * the stream at once even while it waits for the next event.
 */
export interface EventStream extends AsyncIterable<LoggedEvent> {
  close(): void;
}

/** Provides a fresh snapshot of a task and the seq it reflects (resync after eviction). */
export type SnapshotSource = () => Promise<{ task: Task; seq: number } | undefined>;

/** Where a task stream starts. */
export interface FollowStart {
  /** Event(s) to send first: the Task snapshot (seq = the last event it folds in). */
  readonly first?: LoggedEvent;
  /** Deliver log events with seq greater than this. */
  readonly afterSeq: number;
}

/** A stream of exactly one event (a direct Message answer). */
export function singleEventStream(event: StreamResponse): EventStream {
  let closed = false;
  return {
    close: () => {
      closed = true;
    },
    async *[Symbol.asyncIterator]() {
      if (!closed) yield { seq: 0, event };
    },
  };
}

/**
 * Follows a task's log from a cursor. Slow readers cost nothing but a cursor; a reader that
 * falls behind the log's retention gets a fresh Task snapshot in place of the events it
 * missed (overflow policy "resync") and continues from there. The stream ends after the
 * event that moves the task into a terminal or interrupted state (spec §11.7).
 */
export function followTask(log: EventLog, taskId: string, start: FollowStart, snapshot: SnapshotSource, signal?: AbortSignal): EventStream {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort();
  signal?.addEventListener('abort', onOuterAbort, { once: true });
  const close = () => {
    controller.abort();
    signal?.removeEventListener('abort', onOuterAbort);
  };

  async function* events(): AsyncGenerator<LoggedEvent> {
    try {
      let cursor = start.afterSeq;
      if (start.first) {
        if (controller.signal.aborted) return;
        yield start.first;
      }
      while (!controller.signal.aborted) {
        const read = await log.readAfter(taskId, cursor);
        if (read.gap) {
          const snap = await snapshot();
          if (!snap || controller.signal.aborted) return;
          cursor = snap.seq;
          yield { seq: snap.seq, event: { payload: { $case: 'task', value: snap.task } } };
          const state = snap.task.status?.state;
          if (state !== undefined && isSettled(state)) return;
          continue;
        }
        for (const logged of read.events) {
          if (controller.signal.aborted) return;
          cursor = logged.seq;
          yield logged;
          const state = logged.event.payload?.$case === 'statusUpdate' ? eventState(logged.event) : undefined;
          if (state !== undefined && isSettled(state)) return;
        }
        if (read.events.length === 0) await log.waitFor(taskId, cursor, controller.signal);
      }
    } finally {
      close();
    }
  }

  const iterator = events();
  return {
    close,
    [Symbol.asyncIterator]: () => iterator,
  };
}
