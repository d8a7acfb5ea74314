import type { EventLog, LoggedEvent, LogRead } from '@a2a-polyglot/core';

/**
 * Running totals of one agent's event log. Plain numbers, read by the registry at scrape time:
 * the log is on every streamed event's path, and a `+= 1` costs nothing next to a labelled
 * prom-client `inc` (a label hash per call).
 */
export interface EventLogCounts {
  /** Events appended (a task no reader follows is counted, not logged: those are not here). */
  published: number;
  /** Events read back out of the log (streams, resumes and catch-up reads: every stream reads the log). */
  replayed: number;
  /** Reads that found events after the cursor gone (evicted or expired): the reader resyncs from the task. */
  gaps: number;
}

/** A fresh set of zero counts. */
export function eventLogCounts(): EventLogCounts {
  return { published: 0, replayed: 0, gaps: 0 };
}

/**
 * `log`, counting into `counts` what is appended and read. Synchronous answers stay
 * synchronous (the in-memory log's writer applies a run's events in one turn, see
 * EventLog.append), and the optional methods are present exactly when `log` has them, since
 * the core tests for them (`isFollowed`, `addWaiter`, `appendMany` …). Hand-written: a plain
 * decorator of core's own interface, nothing a library would hold.
 */
export function countedEventLog(log: EventLog, counts: EventLogCounts): EventLog {
  const countRead = (read: LogRead): LogRead => {
    counts.replayed += read.events.length;
    if (read.gap) counts.gaps += 1;
    return read;
  };
  const countAppended = (seq: number): number => {
    // 0: dropped, a concurrent writer held that seq already.
    if (seq > 0) counts.published += 1;
    return seq;
  };
  const counted: EventLog = {
    append(key, event, seq) {
      const appended = log.append(key, event, seq);
      return typeof appended === 'number' ? countAppended(appended) : appended.then(countAppended);
    },
    readAfter(key, afterSeq, max) {
      const read = log.readAfter(key, afterSeq, max);
      return isPromise(read) ? read.then(countRead) : countRead(read);
    },
    lastSeq: (key) => log.lastSeq(key),
    waitFor: (key, afterSeq, signal) => log.waitFor(key, afterSeq, signal),
    seal: (key, options) => log.seal(key, options),
  };
  const { appendMany, addWaiter, removeWaiter, isFollowed, follow } = log;
  if (appendMany) {
    counted.appendMany = (key, events: readonly LoggedEvent[], options) => {
      const done = appendMany.call(log, key, events, options);
      if (!isPromise(done)) {
        counts.published += events.length;
        return done;
      }
      return done.then(() => {
        counts.published += events.length;
      });
    };
  }
  if (addWaiter) counted.addWaiter = (key, afterSeq, wake) => addWaiter.call(log, key, afterSeq, wake);
  if (removeWaiter) counted.removeWaiter = (key, wake) => removeWaiter.call(log, key, wake);
  if (isFollowed) counted.isFollowed = (key) => isFollowed.call(log, key);
  if (follow) counted.follow = (key) => follow.call(log, key);
  return counted;
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}
