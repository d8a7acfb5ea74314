import { pageTokenAfter, type StoredTask, type TaskPage, type TaskQuery } from '@a2a-polyglot/core';

/**
 * The page size of a ListTasks query as a row count (rounded down, at least 0), and how many
 * rows a store reads for it: one more, to learn whether a next page exists without a second
 * query.
 */
export function pageRows(query: Pick<TaskQuery, 'pageSize'>): { readonly pageSize: number; readonly readLimit: number } {
  const pageSize = Math.max(0, Math.floor(query.pageSize));
  return { pageSize, readLimit: pageSize + 1 };
}

/**
 * A ListTasks page from the rows a store read (at most `readLimit` of {@link pageRows}, in
 * page order): the first `pageSize`, decoded with `toStored` (the extra row is only counted,
 * never decoded), and a next-page token after the last of them when more were read. One rule
 * for every durable store, so they page exactly like each other.
 */
export function taskPage<R>(read: readonly R[], toStored: (row: R) => StoredTask, pageSize: number, totalSize: number): TaskPage {
  const tasks = read.slice(0, pageSize).map((row) => toStored(row));
  const last = tasks[tasks.length - 1];
  return { tasks, nextPageToken: read.length > pageSize && last ? pageTokenAfter(last.task) : '', totalSize };
}
