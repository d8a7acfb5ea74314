/**
 * A single-consumer queue exposed as an async iterator: the producer pushes items as frames
 * arrive, then ends it or fails it; the consumer iterates. `onTake` reports each item
 * handed out so the owner can account for buffered items (client-side flow control).
 */
export class AsyncQueue<T extends object> implements AsyncIterableIterator<T> {
  private readonly items: T[] = [];
  private waiter: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | undefined;
  private done = false;
  private failure: unknown;
  private failed = false;

  constructor(
    private readonly onTake: () => void = () => {},
    private readonly onReturn: () => void = () => {},
  ) {}

  /** Items waiting for the consumer. */
  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    if (this.done) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      this.onTake();
      w.resolve({ value: item, done: false });
    } else {
      this.items.push(item);
    }
  }

  /** No more items: the consumer finishes after the buffered ones. */
  end(): void {
    if (this.done) return;
    this.done = true;
    this.settleWaiter();
  }

  /** The consumer gets `error` after the buffered items. */
  fail(error: unknown): void {
    if (this.done) return;
    this.done = true;
    this.failed = true;
    this.failure = error;
    this.settleWaiter();
  }

  next(): Promise<IteratorResult<T>> {
    const item = this.items.shift(); // items are objects: undefined means the queue is empty
    if (item !== undefined) {
      this.onTake();
      return Promise.resolve({ value: item, done: false });
    }
    if (this.done) return this.failed ? Promise.reject(this.failure) : Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  /** The consumer stopped early (`break`): drop what is buffered. */
  return(): Promise<IteratorResult<T>> {
    const dropped = this.items.length;
    this.items.length = 0;
    for (let i = 0; i < dropped; i++) this.onTake();
    const wasDone = this.done;
    this.done = true;
    this.failed = false;
    if (!wasDone) this.onReturn();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  private settleWaiter(): void {
    if (!this.waiter || this.items.length > 0) return;
    const w = this.waiter;
    this.waiter = undefined;
    if (this.failed) w.reject(this.failure);
    else w.resolve({ value: undefined, done: true });
  }
}
