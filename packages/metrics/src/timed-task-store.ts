import { wrapTaskStore, type TaskStore, type TaskStoreCall } from '@a2a-polyglot/core';

/** The TaskStore calls that are timed. */
export type TimedStoreOperation = TaskStoreCall;

/** Receives one timing: which call, how long in seconds, whether it succeeded. */
export type StoreTiming = (operation: TimedStoreOperation, seconds: number, ok: boolean) => void;

/**
 * A TaskStore that reports how long each call of `store` took (core's {@link wrapTaskStore},
 * so every store is measured the same way). The lease methods pass through untimed.
 */
export function timedTaskStore(store: TaskStore, report: StoreTiming): TaskStore {
  return wrapTaskStore(store, async (operation, call) => {
    const started = performance.now();
    try {
      const result = await call();
      report(operation, (performance.now() - started) / 1000, true);
      return result;
    } catch (error) {
      report(operation, (performance.now() - started) / 1000, false);
      throw error;
    }
  });
}
