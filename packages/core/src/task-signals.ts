/**
 * A notice about a task, sent by the instance that changed it to every instance, so the one
 * executing the task can stop. Today the only kind is `canceled`: CancelTask was served by an
 * instance that does not run the task.
 */
export interface TaskSignal {
  readonly kind: 'canceled';
  readonly tenant: string;
  readonly taskId: string;
  /** Instance id of the sender; an instance ignores its own signals. */
  readonly origin: string;
}

/**
 * The seam through which instances sharing one store tell each other about task changes that
 * the executing instance must act on. Delivery is best effort: a lost signal is caught by the
 * lease renewal, which finds the task taken over and stops the run all the same.
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
