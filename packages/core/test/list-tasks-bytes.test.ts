import type { Task } from '@a2a-polyglot/model';
import { userSend, testAgentCard } from '@a2a-polyglot/testing';
import { callContext, RequestHandler, silentLogger, type AgentExecutor } from '../src/index.js';
import { DEFAULT_LIST_TASKS_MAX_BYTES } from '../src/request-handler-options.js';

const ctx = () => callContext('IN-PROCESS', { 'a2a-version': '1.0' }, {});
/** Each task carries an artifact of the size its message asks for, in kilobytes. */
const big: AgentExecutor = {
  async execute(c) {
    c.artifact({ text: 'x'.repeat(Number(c.text) * 1024) });
    c.complete('done');
  },
};
const base = { tenant: '', contextId: '', status: 0, statusTimestampAfter: undefined, includeArtifacts: true };

/** Pages through every task, returning the pages' task ids. */
async function allPages(h: RequestHandler, pageSize: number): Promise<string[][]> {
  const pages: string[][] = [];
  let pageToken = '';
  do {
    const page = await h.listTasks({ ...base, pageSize, pageToken }, ctx());
    pages.push(page.tasks.map((t: Task) => t.id));
    pageToken = page.nextPageToken;
  } while (pageToken !== '' && pages.length < 100);
  return pages;
}

describe('ListTasks byte budget', () => {
  it('defaults to 4 MiB', () => {
    expect(DEFAULT_LIST_TASKS_MAX_BYTES).toBe(4 * 1024 * 1024);
  });

  it('ends a page early when the next task would pass the budget, and the token continues exactly there', async () => {
    const h = new RequestHandler({ card: testAgentCard(), executor: big, logger: silentLogger, listTasksMaxBytes: 50 * 1024 });
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) {
      const res = await h.sendMessage(userSend('20'), ctx());
      ids.push((res.payload!.value as Task).id);
    }
    const pages = await allPages(h, 100);
    // 20 KiB tasks, 50 KiB budget: two tasks a page.
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 2, 1]);
    const seen = pages.flat();
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...ids].sort());
    const first = await h.listTasks({ ...base, pageSize: 100, pageToken: '' }, ctx());
    expect(first.totalSize).toBe(9);
  });

  it('still returns one task a page when a task alone is larger than the budget', async () => {
    const h = new RequestHandler({ card: testAgentCard(), executor: big, logger: silentLogger, listTasksMaxBytes: 10 * 1024 });
    for (let i = 0; i < 3; i++) await h.sendMessage(userSend('30'), ctx());
    const pages = await allPages(h, 100);
    expect(pages.map((p) => p.length)).toEqual([1, 1, 1]);
    expect(new Set(pages.flat()).size).toBe(3);
  });

  it('without artifacts the same tasks fit one page', async () => {
    const h = new RequestHandler({ card: testAgentCard(), executor: big, logger: silentLogger, listTasksMaxBytes: 50 * 1024 });
    for (let i = 0; i < 5; i++) await h.sendMessage(userSend('20'), ctx());
    const page = await h.listTasks({ ...base, includeArtifacts: false, pageSize: 100, pageToken: '' }, ctx());
    expect(page.tasks).toHaveLength(5);
    expect(page.nextPageToken).toBe('');
  });
});
