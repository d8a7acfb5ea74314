import { aborted, timedOut } from '../failures.js';
import type { CallOptions } from '../transport.js';

/** A call's `timeoutMs` and `signal`, applied to the promises it waits on. */
export interface Deadline {
  race<T>(promise: Promise<T>): Promise<T>;
  dispose(): void;
}

/**
 * Starts a call's deadline: {@link Deadline.race} rejects with `timedOut` once `timeoutMs`
 * passes and with `aborted` once the signal fires; `dispose` stops both.
 */
export function startDeadline(what: string, options: CallOptions): Deadline {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const { timeoutMs } = options;
  const stop = new Promise<never>((_, reject) => {
    if (timeoutMs !== undefined) timer = setTimeout(() => reject(timedOut(what, timeoutMs)), timeoutMs);
    if (options.signal) {
      onAbort = () => reject(aborted(what));
      if (options.signal.aborted) onAbort();
      else options.signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  stop.catch(() => undefined);
  return {
    race: (promise) => Promise.race([promise, stop]),
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** Waits for `promise`, or rejects with `aborted` once the signal fires. */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined, what: string): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(aborted(what));
  let rejectStop: (error: unknown) => void = () => undefined;
  const stop = new Promise<never>((_, reject) => {
    rejectStop = reject;
  });
  const onAbort = () => rejectStop(aborted(what));
  signal.addEventListener('abort', onAbort, { once: true });
  return Promise.race([promise, stop]).finally(() => signal.removeEventListener('abort', onAbort));
}
