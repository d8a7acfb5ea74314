import { taskLogKey, type EventLog } from './event-log.js';
import { followTask } from './event-stream.js';
import type { StoredTask } from './task-store.js';

/**
 * Waits until a queued task settles (terminal or interrupted) wherever a worker runs it,
 * following its event log after `afterSeq` with the follower of SubscribeToTask: it wakes on
 * the log's appends (durable mode logs an event only once it is stored), never on a clock. A
 * blocking SendMessage whose run was queued answers once this resolves. Ends early when
 * `signal` aborts (the caller left).
 * @internal
 */
export async function awaitTaskSettled(
  log: EventLog,
  tenant: string,
  taskId: string,
  afterSeq: number,
  load: () => Promise<StoredTask>,
  signal: AbortSignal | undefined,
): Promise<void> {
  const snapshot = async () => {
    const stored = await load();
    return { task: stored.task, seq: stored.version };
  };
  const stream = followTask(log, taskLogKey(tenant, taskId), { afterSeq }, snapshot, signal);
  try {
    while (await stream.nextBatch()) {
      // Only the end matters.
    }
  } finally {
    stream.close();
  }
}
