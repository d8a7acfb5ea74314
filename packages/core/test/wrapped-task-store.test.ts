import { TaskState, type Task } from '@a2a-polyglot/model';
import { InMemoryTaskStore, wrapTaskStore, type StoredTask } from '../src/index.js';

function working(id: string, tenant: string): StoredTask {
  const task: Task = {
    id,
    contextId: 'ctx',
    status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: '' },
    artifacts: [],
    history: [],
    metadata: undefined,
  };
  return { tenant, task, version: 1 };
}

describe('wrapTaskStore', () => {
  it("passes the sweep's query through whole: the tenant partition reaches the store", async () => {
    let now = 1_000;
    const inner = new InMemoryTaskStore({ now: () => now });
    const store = wrapTaskStore(inner, (_operation, call) => call());
    await store.save(working('other', '@a/'), 0, { owner: 'gone', ttlMs: 1 });
    await store.save(working('mine', ''), 0, { owner: 'gone', ttlMs: 1 });
    now += 10;
    const ids = async (query: Parameters<NonNullable<typeof store.abandoned>>[0]) => (await store.abandoned!(query)).map((t) => t.task.id);
    expect(await ids({ limit: 10 })).toEqual(['other', 'mine']);
    expect(await ids({ limit: 1, tenants: { exceptPrefix: '@', keepPrefix: '@@' } })).toEqual(['mine']);
    expect(await ids({ limit: 10, tenants: { prefix: '@a/' } })).toEqual(['other']);
  });
});
