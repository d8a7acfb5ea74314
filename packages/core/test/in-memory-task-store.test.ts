import { TaskState, type Task } from '@a2a-polyglot/model';
import { A2AErrorCode, InMemoryTaskStore, type StoredTask } from '../src/index.js';

function stored(id: string, timestamp: string, state = TaskState.TASK_STATE_COMPLETED, extra: Partial<StoredTask> = {}): StoredTask {
  const task: Task = { id, contextId: 'ctx', status: { state, message: undefined, timestamp }, artifacts: [], history: [], metadata: undefined };
  return { tenant: '', task, version: 1, ...extra };
}

describe('InMemoryTaskStore', () => {
  it('pages newest-first with a stable cursor and a total', async () => {
    const store = new InMemoryTaskStore();
    for (let i = 0; i < 5; i++) await store.save(stored(`t${i}`, `2026-01-0${i + 1}T00:00:00.000Z`));
    const seen: string[] = [];
    let token = '';
    do {
      const page = await store.list({ tenant: '', pageSize: 2, pageToken: token });
      expect(page.totalSize).toBe(5);
      seen.push(...page.tasks.map((t) => t.task.id));
      token = page.nextPageToken;
    } while (token);
    expect(seen).toEqual(['t4', 't3', 't2', 't1', 't0']);
  });

  it('filters by tenant, owner, context, state and timestamp', async () => {
    const store = new InMemoryTaskStore();
    await store.save(stored('a', '2026-01-01T00:00:00.000Z'));
    await store.save(stored('b', '2026-01-02T00:00:00.000Z', TaskState.TASK_STATE_WORKING, { owner: 'alice' }));
    await store.save(stored('c', '2026-01-03T00:00:00.000Z', TaskState.TASK_STATE_WORKING, { tenant: 'other' }));
    const ids = async (q: object) => (await store.list({ tenant: '', pageSize: 10, pageToken: '', ...q })).tasks.map((t) => t.task.id);
    expect(await ids({})).toEqual(['b', 'a']);
    expect(await ids({ owner: 'alice' })).toEqual(['b']);
    expect(await ids({ state: TaskState.TASK_STATE_WORKING })).toEqual(['b']);
    expect(await ids({ statusTimestampAfter: '2026-01-02T00:00:00.000Z' })).toEqual(['b']);
    expect(await ids({ tenant: 'other' })).toEqual(['c']);
    expect(await ids({ contextId: 'nope' })).toEqual([]);
  });

  it('rejects a malformed cursor', async () => {
    await expect(new InMemoryTaskStore().list({ tenant: '', pageSize: 1, pageToken: 'garbage!' })).rejects.toMatchObject({ code: A2AErrorCode.InvalidParams });
  });

  it('refuses a stale write instead of overwriting (optimistic concurrency)', async () => {
    const store = new InMemoryTaskStore();
    await store.save(stored('t', '2026-01-01T00:00:00.000Z', TaskState.TASK_STATE_WORKING, { version: 3 }), 0);
    await expect(store.save(stored('t', '2026-01-01T00:00:00.000Z', TaskState.TASK_STATE_WORKING, { version: 4 }), 2)).rejects.toMatchObject({
      code: A2AErrorCode.Unavailable,
    });
    await store.save(stored('t', '2026-01-01T00:00:00.000Z', TaskState.TASK_STATE_COMPLETED, { version: 4 }), 3);
    expect((await store.get('', 't'))?.version).toBe(4);
  });

  it('returns copies, so callers cannot corrupt stored tasks', async () => {
    const store = new InMemoryTaskStore();
    const t = stored('t', '2026-01-01T00:00:00.000Z');
    await store.save(t);
    t.task.artifacts.push({} as never);
    const got = await store.get('', 't');
    got!.task.history.push({} as never);
    expect((await store.get('', 't'))!.task).toMatchObject({ artifacts: [], history: [] });
  });

  it('keeps a final save without copying it, and still hands out copies on every read', async () => {
    const store = new InMemoryTaskStore();
    const t = stored('t', '2026-01-01T00:00:00.000Z');
    await store.save(t, undefined, undefined, { final: true });
    const first = await store.get('', 't');
    expect(first).toEqual(t);
    expect(first?.task).not.toBe(t.task);
    first?.task.history.push({} as never);
    const listed = await store.list({ tenant: '', pageSize: 10, pageToken: '' });
    listed.tasks[0]?.task.artifacts.push({} as never);
    expect((await store.get('', 't'))?.task).toMatchObject({ artifacts: [], history: [] });
  });

  it('evicts the oldest terminal tasks first and never active ones', async () => {
    const store = new InMemoryTaskStore({ maxTasks: 3 });
    await store.save(stored('active', '2026-01-01T00:00:00.000Z', TaskState.TASK_STATE_WORKING));
    for (let i = 0; i < 5; i++) await store.save(stored(`done${i}`, '2026-01-02T00:00:00.000Z'));
    expect(store.size).toBe(3);
    expect(await store.get('', 'active')).toBeDefined();
    expect(await store.get('', 'done4')).toBeDefined();
    expect(await store.get('', 'done0')).toBeUndefined();
  });

  it('orders eviction by last save, across many re-saves and deletes', async () => {
    const store = new InMemoryTaskStore({ maxTasks: 50 });
    for (let i = 0; i < 50; i++) await store.save(stored(`t${i}`, '2026-01-02T00:00:00.000Z'));
    // Re-save the even tasks many times (they become the newest), delete a few odd ones.
    for (let round = 0; round < 40; round++) for (let i = 0; i < 50; i += 2) await store.save(stored(`t${i}`, '2026-01-02T00:00:00.000Z'));
    await store.delete('', 't1');
    await store.delete('', 't3');
    for (let i = 0; i < 30; i++) await store.save(stored(`new${i}`, '2026-01-03T00:00:00.000Z'));
    expect(store.size).toBe(50);
    // 48 + 30 = 78 held before eviction: the 23 remaining odd tasks go first, then the 5 oldest-saved even ones.
    for (let i = 5; i < 50; i += 2) expect(await store.get('', `t${i}`)).toBeUndefined();
    for (let i = 0; i < 10; i += 2) expect(await store.get('', `t${i}`)).toBeUndefined();
    for (let i = 10; i < 50; i += 2) expect(await store.get('', `t${i}`)).toBeDefined();
    for (let i = 0; i < 30; i++) expect(await store.get('', `new${i}`)).toBeDefined();
  });
});
