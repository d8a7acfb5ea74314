import { taskLogKey, type EventLog } from './event-log.js';
import { followTask } from './event-stream.js';
import { isTerminal } from './task-state.js';
import type { StoredTask } from './task-store.js';

/** What {@link awaitTaskEnd} waits on. */
export interface TaskEndWait {
  readonly log: EventLog;
  readonly tenant: string;
  readonly taskId: string;
  /** The version of the task the caller last read: events after it are followed. */
  readonly afterSeq: number;
  /** Reads the stored task (with the caller's visibility rules). */
  readonly load: () => Promise<StoredTask>;
  /** How long to wait at most. */
  readonly timeoutMs: number;
}

/**
 * Waits until a task that another instance executes reaches a terminal state, or until
 * `timeoutMs` passes, and resolves with the stored task as it is then: the caller decides
 * what a task still running at the deadline means. Follows the task's event log with the
 * follower of SubscribeToTask, so it wakes on the log's appends (durable mode logs an event
 * only once it is stored), never on a polling clock. Used by a cancel that asked the
 * executing instance to cancel for it.
 * @internal
 */
export async function awaitTaskEnd(wait: TaskEndWait): Promise<StoredTask> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), wait.timeoutMs);
  // Never keep a process alive for a client's wait.
  (timer as { unref?: () => void }).unref?.();
  const key = taskLogKey(wait.tenant, wait.taskId);
  const snapshot = async () => {
    const stored = await wait.load();
    return { task: stored.task, seq: stored.version };
  };
  try {
    let afterSeq = wait.afterSeq;
    for (;;) {
      // Ends after the event that settles the task (terminal, or interrupted), or at the deadline.
      const stream = followTask(wait.log, key, { afterSeq }, snapshot, deadline.signal);
      try {
        while (await stream.nextBatch()) {
          // Only the end matters.
        }
      } finally {
        stream.close();
      }
      const stored = await wait.load();
      const state = stored.task.status?.state;
      // A follow that ended with no new version (the log is gone) would only end again at once.
      if ((state !== undefined && isTerminal(state)) || deadline.signal.aborted || stored.version <= afterSeq) return stored;
      // Settled on an interrupted state the agent reported before the cancel reached it: go on.
      afterSeq = stored.version;
    }
  } finally {
    clearTimeout(timer);
  }
}
