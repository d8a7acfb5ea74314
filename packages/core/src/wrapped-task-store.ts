import type { TaskStore } from './task-store.js';

/** The TaskStore calls a {@link wrapTaskStore} wrapper sees (the request-path ones). */
export type TaskStoreCall = 'get' | 'save' | 'list' | 'delete';

/** Runs one store call (`call`) and returns what it returns: time it, trace it, … */
export type TaskStoreWrapper = <R>(operation: TaskStoreCall, call: () => Promise<R>) => Promise<R>;

/**
 * `store` with each request-path call run through `around`. A decorator rather than code in
 * each store, so SQLite, PostgreSQL, in-memory and custom stores are measured and traced the
 * same way, and one decorator serves metrics (timings) and traces (spans) alike. The optional
 * lease methods pass through unwrapped (they run on timers, not on requests), and so does the
 * synchronous admission check.
 */
export function wrapTaskStore(store: TaskStore, around: TaskStoreWrapper): TaskStore {
  const wrapped =
    <A extends unknown[], R>(operation: TaskStoreCall, call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      around(operation, () => call(...args));
  return {
    get: wrapped('get', store.get.bind(store)),
    save: wrapped('save', store.save.bind(store)),
    list: wrapped('list', store.list.bind(store)),
    delete: wrapped('delete', store.delete.bind(store)),
    ...(store.renewLeases ? { renewLeases: store.renewLeases.bind(store) } : {}),
    ...(store.abandoned ? { abandoned: store.abandoned.bind(store) } : {}),
    ...(store.admitNewTask ? { admitNewTask: store.admitNewTask.bind(store) } : {}),
  };
}
