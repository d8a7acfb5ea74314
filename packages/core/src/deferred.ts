/**
 * A promise with its resolver exposed, for "wait until the run reaches X" signals.
 * @internal
 */
export class Deferred<T> {
  readonly promise: Promise<T>;
  resolve!: (value: T) => void;
  settled = false;

  constructor() {
    this.promise = new Promise<T>((resolve) => {
      this.resolve = (value: T) => {
        if (this.settled) return;
        this.settled = true;
        resolve(value);
      };
    });
  }
}
