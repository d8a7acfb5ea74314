/**
 * A notice about a task, sent to every instance so the one executing the task acts on it; both
 * kinds come from CancelTask served by an instance that does not run the task:
 * - `canceled`: the sender already wrote CANCELED to the store; the executing instance stops
 *   its run without writing.
 * - `cancel-requested`: the sender lost the version race against the executing
 *   instance's writes (an agent writing faster than a store round trip wins every retry); the executing
 *   instance cancels the task through its own run, the task's only writer, and the sender waits
 *   for the task to end.
 */
export interface TaskSignal {
  readonly kind: TaskSignalKind;
  readonly tenant: string;
  readonly taskId: string;
  /** Instance id of the sender; an instance ignores its own signals. */
  readonly origin: string;
}

/** Every {@link TaskSignalKind}: the type and the check below are both read off this list. */
const TASK_SIGNAL_KINDS = ['canceled', 'cancel-requested'] as const;

/** What a {@link TaskSignal} asks of the instance executing the task. */
export type TaskSignalKind = (typeof TASK_SIGNAL_KINDS)[number];

/** True for a known {@link TaskSignalKind} (a signal decoded from a shared channel is checked with it). */
export function isTaskSignalKind(kind: unknown): kind is TaskSignalKind {
  return (TASK_SIGNAL_KINDS as readonly unknown[]).includes(kind);
}

/**
 * The seam through which instances sharing one store tell each other about task changes that
 * the executing instance must act on. Delivery is best effort: a lost `canceled` is caught by the
 * lease renewal, which finds the task taken over and stops the run all the same; a lost
 * `cancel-requested` by the sender's deadline, after which it writes the cancel itself.
 */
export interface TaskSignals {
  /** Sends a signal to every subscribed instance (including, possibly, the sender). */
  publish(signal: TaskSignal): Promise<void>;
  /** Registers a listener; returns the function that removes it. */
  subscribe(listener: (signal: TaskSignal) => void): () => void;
}

/**
 * The in-process default: delivers to the listeners of this process only. Enough for one
 * instance, and for tests that run several request handlers in one process over one store.
 */
export class LocalTaskSignals implements TaskSignals {
  private readonly listeners = new Set<(signal: TaskSignal) => void>();

  async publish(signal: TaskSignal): Promise<void> {
    for (const listener of [...this.listeners]) queueMicrotask(() => listener(signal));
  }

  subscribe(listener: (signal: TaskSignal) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
