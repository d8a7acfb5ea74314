/**
 * A one-shot "the run reached X" signal with its value. The promise is made only when
 * somebody waits on it: most runs answer before anyone waits (an agent that completes at
 * once), and then no promise is made at all; {@link settled} and {@link value} are read
 * directly instead.
 * @internal
 */
export class Deferred<T> {
  settled = false;
  private result: T | undefined;
  private waiting: Promise<T> | undefined;
  private wake: ((value: T) => void) | undefined;

  /** The value once {@link settled}; undefined before. */
  get value(): T | undefined {
    return this.result;
  }

  /** Resolves with the value (at once when already settled). */
  get promise(): Promise<T> {
    if (!this.waiting) {
      this.waiting = this.settled ? Promise.resolve(this.result as T) : new Promise<T>((resolve) => (this.wake = resolve));
    }
    return this.waiting;
  }

  /** Settles with `value`; later calls are ignored. */
  resolve(value: T): void {
    if (this.settled) return;
    this.settled = true;
    this.result = value;
    this.wake?.(value);
    this.wake = undefined;
  }
}
