import type { DriverStream, StreamItem } from '../driver.js';

/**
 * Items in arrival order for one consumer; `cut()` ends it at once, even while a read is
 * pending (the client cut: nothing after it is delivered). The drivers whose wire pushes
 * events (gRPC, the gRPC session, WebSocket) buffer them here until the runner reads.
 * @internal
 */
export class ItemQueue<T> implements AsyncIterator<T> {
  /** Boxed, so that an item that is itself `undefined` is still told apart from none. */
  private readonly items: Array<{ readonly value: T }> = [];
  private waiter: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | undefined;
  private state: { done: false } | { done: true; error?: unknown } = { done: false };

  push(item: T): void {
    if (this.state.done) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w.resolve({ value: item, done: false });
    } else this.items.push({ value: item });
  }

  /** Ends after the buffered items; with `error`, the consumer gets it after them. */
  end(error?: unknown): void {
    if (this.state.done) return;
    const state = error === undefined ? { done: true as const } : { done: true as const, error };
    this.state = state;
    if (this.waiter && this.items.length === 0) this.settle(this.waiter, state);
  }

  /** Ends now: buffered items are dropped, a pending read ends. */
  cut(): void {
    this.items.length = 0;
    const state = { done: true as const };
    this.state = state;
    if (this.waiter) this.settle(this.waiter, state);
  }

  next(): Promise<IteratorResult<T>> {
    const head = this.items.shift();
    if (head) return Promise.resolve({ value: head.value, done: false });
    const state = this.state;
    if (state.done) return new Promise((resolve, reject) => this.settle({ resolve, reject }, state));
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  private settle(w: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void }, state: { done: true; error?: unknown }): void {
    this.waiter = undefined;
    if (state.error !== undefined) w.reject(state.error);
    else w.resolve({ value: undefined, done: true });
  }
}

/**
 * Runs `produce` in the background (it pushes into `queue`), then ends the queue: normally
 * when it returns, with the error when it throws.
 * @internal
 */
export function fillQueue<T>(queue: ItemQueue<T>, produce: () => Promise<void>): void {
  void produce().then(
    () => queue.end(),
    (error: unknown) => queue.end(error),
  );
}

/**
 * A {@link DriverStream} read from `queue`. `close()` is the client cut: the queue ends at once
 * (a pending read ends too), then `cancel` drops the call on the wire.
 * @internal
 */
export function queuedDriverStream(queue: ItemQueue<StreamItem>, cancel: () => void): DriverStream {
  return {
    close: () => {
      queue.cut();
      cancel();
    },
    [Symbol.asyncIterator]: () => queue,
  };
}
