/**
 * Runs steps strictly one after another, like a promise chain, but a step queued while nothing
 * is pending runs at once, in the caller's turn. A step that returns a promise holds the
 * queue until it settles; later steps wait behind it.
 *
 * Why not a plain promise chain: a task run applies every event of its task through such a
 * queue, and with the in-memory store and event log nothing in a step is asynchronous. A chain
 * would cost two promises and two microtask turns per event; this costs none, and an agent
 * that reports submit → working → artifact → completed in one go has its task completed by
 * the time its call returns.
 * @internal
 */
export class SerialQueue {
  /** Settles when the last asynchronous step (and everything queued behind it) is done; undefined when idle. */
  private tail: Promise<void> | undefined;
  /** A step is running synchronously; steps queued meanwhile wait in {@link backlog}, in order. */
  private running = false;
  /** Made when a step is first queued behind a running one (most queues never need it): a run lives as long as its task. */
  private backlog: Array<(arg: unknown) => unknown> | undefined;
  /** The argument of each step in {@link backlog}, index for index. */
  private backlogArgs: unknown[] | undefined;

  /**
   * @param onError where a failing step's error goes (steps never reject the queue), called
   * with `errorArg` too: a long-lived owner passes a shared function and its own value (a
   * logger) instead of a closure of its own.
   */
  constructor(
    private readonly onError: (error: unknown, errorArg: never) => void,
    private readonly errorArg?: unknown,
  ) {}

  /** True while an asynchronous step is pending (new steps will wait). */
  get busy(): boolean {
    return this.tail !== undefined;
  }

  /**
   * Queues a step: runs it now when the queue is idle, else after the pending ones. The step
   * is called with `arg`, so a caller queueing the same work for many values (a run applies
   * every event through here) passes one long-lived function and the value instead of a new
   * closure per value.
   */
  push(step: () => unknown): void;
  push<A>(step: (arg: A) => unknown, arg: A): void;
  push(step: (arg: unknown) => unknown, arg?: unknown): void {
    if (this.tail) {
      this.track(this.tail.then(() => step(arg)));
      return;
    }
    if (this.running) {
      // Queued from inside a running step: it runs right after that step.
      this.backlog ??= [];
      this.backlogArgs ??= [];
      this.backlog.push(step);
      this.backlogArgs.push(arg);
      return;
    }
    this.running = true;
    try {
      let next: ((arg: unknown) => unknown) | undefined = step;
      let nextArg = arg;
      while (next) {
        let result: unknown;
        try {
          result = next(nextArg);
        } catch (error) {
          this.fail(error);
        }
        const backlog = this.backlog;
        const backlogArgs = this.backlogArgs;
        if (isThenable(result)) {
          let tail = this.track(Promise.resolve(result));
          if (backlog && backlogArgs) {
            for (let i = 0; i < backlog.length; i++) {
              const later = backlog[i] as (arg: unknown) => unknown;
              const laterArg = backlogArgs[i];
              tail = this.track(tail.then(() => later(laterArg)));
            }
            backlog.length = 0;
            backlogArgs.length = 0;
          }
          return;
        }
        next = backlog?.shift();
        nextArg = backlogArgs?.shift();
      }
    } finally {
      this.running = false;
    }
  }

  /** Resolves once every step queued so far has run (at once, as a resolved promise, when idle). */
  idle(): Promise<void> {
    return this.tail ?? RESOLVED;
  }

  /** Makes `pending` the queue's tail; returns the tail (what the next step waits for). */
  private track(pending: Promise<unknown>): Promise<void> {
    const tail: Promise<void> = pending.then(
      () => this.release(tail),
      (error: unknown) => {
        this.fail(error);
        this.release(tail);
      },
    );
    this.tail = tail;
    return tail;
  }

  private fail(error: unknown): void {
    this.onError(error, this.errorArg as never);
  }

  private release(tail: Promise<void>): void {
    if (this.tail === tail) this.tail = undefined;
  }
}

const RESOLVED: Promise<void> = Promise.resolve();

/** A promise or any then-able (what `await` would wait for). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
