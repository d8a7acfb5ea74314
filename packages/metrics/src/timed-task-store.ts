import type { TaskStore } from '@a2a-polyglot/core';

/** The TaskStore calls that are timed. */
export type TimedStoreOperation = 'get' | 'save' | 'list' | 'delete';

/** Receives one timing: which call, how long in seconds, whether it succeeded. */
export type StoreTiming = (operation: TimedStoreOperation, seconds: number, ok: boolean) => void;

/**
 * A TaskStore that reports how long each call of `store` took. A decorator rather than code
 * in each store, so SQLite, PostgreSQL, in-memory and custom stores are measured the same
 * way. The optional lease methods pass through untimed (they run on timers, not on requests).
 */
export function timedTaskStore(store: TaskStore, report: StoreTiming): TaskStore {
  const timed = <A extends unknown[], R>(operation: TimedStoreOperation, call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const started = performance.now();
      try {
        const result = await call(...args);
        report(operation, (performance.now() - started) / 1000, true);
        return result;
      } catch (error) {
        report(operation, (performance.now() - started) / 1000, false);
        throw error;
      }
    };
  return {
    get: timed('get', store.get.bind(store)),
    save: timed('save', store.save.bind(store)),
    list: timed('list', store.list.bind(store)),
    delete: timed('delete', store.delete.bind(store)),
    ...(store.renewLeases ? { renewLeases: store.renewLeases.bind(store) } : {}),
    ...(store.abandoned ? { abandoned: store.abandoned.bind(store) } : {}),
  };
}
