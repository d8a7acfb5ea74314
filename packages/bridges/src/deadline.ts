import { BridgeError } from './bridge-error.js';

/** A signal for one upstream run: the task's signal plus the run's own time limit. */
export interface TurnSignal {
  readonly signal: AbortSignal;
  /** Clears the timer; call when the run is over. */
  dispose(): void;
}

/**
 * Links the task's abort signal (cancel, shutdown) with `maxRunMs` (0 = no limit), so an
 * upstream that keeps a stream alive forever still ends the task, with a message saying why.
 */
export function turnSignal(taskSignal: AbortSignal, maxRunMs: number, bridge: string): TurnSignal {
  const controller = new AbortController();
  const onAbort = () => controller.abort(taskSignal.reason);
  if (taskSignal.aborted) onAbort();
  else taskSignal.addEventListener('abort', onAbort, { once: true });
  const timer =
    maxRunMs > 0 ? setTimeout(() => controller.abort(new BridgeError(`The ${bridge} upstream run did not finish within ${maxRunMs} ms`)), maxRunMs) : undefined;
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      taskSignal.removeEventListener('abort', onAbort);
    },
  };
}
