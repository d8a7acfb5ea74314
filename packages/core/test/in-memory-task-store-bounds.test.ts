import { Role, TaskState, type Task } from '@a2a-polyglot/model';
import { testAgentCard, userSend } from '@a2a-polyglot/testing';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  A2AErrorCode,
  callContext,
  InMemoryTaskStore,
  RequestHandler,
  silentLogger,
  textPart,
  wrapTaskStore,
  type AgentExecutor,
  type StoredTask,
} from '../src/index.js';
import { estimateBytes } from '../src/estimate-size.js';

const KB = 1024;
const MB = 1024 * KB;

/** A task carrying `textBytes` of text in one history message (a distinct string per call). */
function stored(id: string, state: TaskState, textBytes = 100 * KB): StoredTask {
  // A flat string of its own (padEnd/repeat build ropes that share their filler).
  const text = Buffer.alloc(textBytes, id).toString('latin1');
  const task: Task = {
    id,
    contextId: 'ctx',
    status: { state, message: undefined, timestamp: '2026-01-01T00:00:00.000Z' },
    artifacts: [],
    history: [
      {
        messageId: `m-${id}`,
        contextId: 'ctx',
        taskId: id,
        role: Role.ROLE_USER,
        parts: [textPart(text)],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
    ],
    metadata: undefined,
  };
  return { tenant: '', task, version: 1 };
}

const { COMPLETED, INPUT, AUTH, WORKING } = {
  COMPLETED: TaskState.TASK_STATE_COMPLETED,
  INPUT: TaskState.TASK_STATE_INPUT_REQUIRED,
  AUTH: TaskState.TASK_STATE_AUTH_REQUIRED,
  WORKING: TaskState.TASK_STATE_WORKING,
};

/** What the store charges for a task (its estimate plus its key). */
const cost = (id: string, state: TaskState) => estimateBytes(stored(id, state)) + `\u0000${id}`.length;

async function held(store: InMemoryTaskStore, ids: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const id of ids) if (await store.get('', id)) out.push(id);
  return out;
}

describe('InMemoryTaskStore byte bounds', () => {
  it('estimates a task at least at its text size, without serialising it', () => {
    const size = estimateBytes(stored('t', COMPLETED, 200 * KB));
    expect(size).toBeGreaterThanOrEqual(200 * KB);
    expect(size).toBeLessThan(201 * KB);
  });

  it('counts data at any depth: a string nested 60 or 10,000 levels deep, and a cycle, are all counted', () => {
    const nest = (levels: number, leaf: unknown) => {
      let v: unknown = leaf;
      for (let i = 0; i < levels; i++) v = { a: v };
      return v;
    };
    const text = Buffer.alloc(MB, 'n').toString('latin1');
    for (const levels of [5, 60, 100, 10_000]) {
      const size = estimateBytes(nest(levels, text));
      // The string, plus the levels' objects, each a header and a slot.
      expect(size).toBeGreaterThanOrEqual(MB + levels * 40);
      expect(size).toBeLessThan(MB + levels * 40 + 1024);
    }
    // Deep under a part, as a client sends it: the same bytes as the text beside it.
    const task = stored('deep', COMPLETED, 10);
    task.task.history[0]!.parts.push({ content: { $case: 'data', value: nest(60, text) }, metadata: undefined, filename: '', mediaType: '' });
    expect(estimateBytes(task)).toBeGreaterThan(MB);
    // A cycle (only an agent's own objects can hold one) ends the walk instead of hanging it.
    const cyclic: Record<string, unknown> = { text };
    cyclic.self = cyclic;
    expect(estimateBytes(cyclic)).toBeGreaterThan(MB);
  });

  it('evicts tasks whose bytes sit deep in a data part (150 × 1 MiB nested 60 deep, 16 MiB budget)', async () => {
    const store = new InMemoryTaskStore({ maxBytes: 16 * MB });
    for (let i = 0; i < 150; i++) {
      const task = stored(`n${i}`, COMPLETED, 10);
      let data: unknown = { blob: Buffer.alloc(MB, `n${i}`).toString('latin1') };
      for (let d = 0; d < 60; d++) data = { a: data };
      task.task.history[0]!.parts = [{ content: { $case: 'data', value: data as Record<string, unknown> }, metadata: undefined, filename: '', mediaType: '' }];
      await store.save(task);
    }
    expect(store.bytes).toBeLessThanOrEqual(16 * MB);
    expect(store.size).toBeLessThanOrEqual(16);
  });

  it('never holds more estimated bytes than the budget, however many large tasks are saved', async () => {
    const store = new InMemoryTaskStore({ maxBytes: 2 * MB });
    for (let i = 0; i < 200; i++) {
      await store.save(stored(`t${i}`, i % 3 === 0 ? INPUT : COMPLETED));
      expect(store.bytes).toBeLessThanOrEqual(2 * MB);
    }
    // As many 100 KB tasks as the 2 MiB budget holds, no more.
    expect(store.size).toBe(Math.floor((2 * MB) / cost('t199', COMPLETED)));
    // Finished tasks go before interrupted ones: the store ends up holding the newest
    // interrupted tasks (every third), and even the just-finished t199 made room for them.
    expect(await held(store, ['t199', 't198', 't197', 't196', 't195'])).toEqual(['t198', 't195']);
    expect(await store.get('', 't0')).toBeUndefined();
  });

  it('evicts finished tasks oldest first, then interrupted tasks idle longest, never live ones', async () => {
    const one = cost('xx', COMPLETED);
    const store = new InMemoryTaskStore({ maxBytes: 6 * one });
    const order = [
      ['i1', INPUT],
      ['f1', COMPLETED],
      ['a1', AUTH],
      ['lv', WORKING],
      ['f2', COMPLETED],
      ['i2', INPUT],
    ] as const;
    for (const [id, state] of order) await store.save(stored(id, state));
    const all = order.map(([id]) => id);
    expect(await held(store, all)).toEqual(all);
    // Re-saving f1 makes it the most recently saved finished task: f2 goes first.
    await store.save(stored('f1', COMPLETED));
    await store.save(stored('n1', WORKING));
    expect(await held(store, all)).toEqual(['i1', 'f1', 'a1', 'lv', 'i2']);
    await store.save(stored('n2', WORKING));
    expect(await held(store, all)).toEqual(['i1', 'a1', 'lv', 'i2']);
    // No finished task left: the interrupted task idle longest (i1) goes, then a1.
    await store.save(stored('n3', WORKING));
    expect(await held(store, all)).toEqual(['a1', 'lv', 'i2']);
    await store.save(stored('n4', WORKING));
    expect(await held(store, all)).toEqual(['lv', 'i2']);
    expect(store.bytes).toBeLessThanOrEqual(6 * one);
  });

  it('refuses a new live task when live tasks alone fill the budget, and keeps accepting their updates', async () => {
    const one = cost('xx', WORKING);
    const store = new InMemoryTaskStore({ maxBytes: 2 * one });
    await store.save(stored('w1', WORKING));
    await store.save(stored('w2', WORKING));
    await expect(store.save(stored('w3', WORKING), 0)).rejects.toMatchObject({
      code: A2AErrorCode.ResourceExhausted,
      metadata: { taskId: 'w3', limit: 'maxBytes' },
    });
    expect(await store.get('', 'w3')).toBeUndefined();
    // A running task growing past the budget is not refused (its work would be lost).
    await store.save({ ...stored('w1', WORKING, 300 * KB), version: 2 });
    expect((await store.get('', 'w1'))?.version).toBe(2);
    // Once it finishes it is evictable: the new task gets in and the finished one makes room.
    await store.save({ ...stored('w1', COMPLETED), version: 3 });
    await store.save(stored('w3', WORKING), 0);
    expect(await held(store, ['w1', 'w2', 'w3'])).toEqual(['w2', 'w3']);
  });

  it('refuses by task count too (maxTasks), with the same rule', async () => {
    const store = new InMemoryTaskStore({ maxTasks: 2 });
    await store.save(stored('w1', WORKING, 10));
    await store.save(stored('w2', WORKING, 10));
    await expect(store.save(stored('w3', WORKING, 10))).rejects.toMatchObject({ code: A2AErrorCode.ResourceExhausted, metadata: { limit: 'maxTasks' } });
  });

  it('expires interrupted tasks idle longer than interruptedIdleMs (injected clock), not live or finished ones', async () => {
    let now = 0;
    const store = new InMemoryTaskStore({ interruptedIdleMs: 1000, now: () => now });
    await store.save(stored('a', INPUT, 10));
    await store.save(stored('w', WORKING, 10));
    await store.save(stored('f', COMPLETED, 10));
    now = 500;
    await store.save(stored('b', AUTH, 10));
    now = 1000;
    expect(await held(store, ['a', 'b', 'w', 'f'])).toEqual(['a', 'b', 'w', 'f']);
    now = 1001;
    expect(await held(store, ['a', 'b', 'w', 'f'])).toEqual(['b', 'w', 'f']);
    // A save resets the idle time.
    now = 1200;
    await store.save({ ...stored('b', AUTH, 10), version: 2 });
    now = 2200;
    expect(await held(store, ['b'])).toEqual(['b']);
    now = 2201;
    expect((await store.list({ tenant: '', pageSize: 10, pageToken: '' })).tasks.map((t) => t.task.id).sort()).toEqual(['f', 'w']);
    expect(store.size).toBe(2);
    now = 1e12;
    expect(await held(store, ['w', 'f'])).toEqual(['w', 'f']);
  });

  it('interruptedIdleMs 0 never expires interrupted tasks', async () => {
    let now = 0;
    const store = new InMemoryTaskStore({ interruptedIdleMs: 0, now: () => now });
    await store.save(stored('a', INPUT, 10));
    now = 1e12;
    expect(await store.get('', 'a')).toBeDefined();
  });

  it('keeps the heap bounded: 400 × 200 KB tasks through a 20 MiB budget', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const store = new InMemoryTaskStore({ maxBytes: 20 * MB });
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 400; i++) await store.save(stored(`big${i}`, COMPLETED, 200 * KB));
    gc();
    const growth = process.memoryUsage().heapUsed - before;
    // The store holds close to its budget, no more...
    expect(store.bytes).toBeLessThanOrEqual(20 * MB);
    expect(store.bytes).toBeGreaterThan(15 * MB);
    // ...and the heap agrees: 80 MB went through, what stays is the budget plus slack for the
    // heap's own bookkeeping. Only an upper bound: in a shared jest worker, garbage of earlier
    // suites can still be freed during the loop, so the growth may even be negative (seen in CI).
    expect(growth).toBeLessThan(30 * MB);
  });
});

describe('RequestHandler with a full in-memory store', () => {
  const ctx = () => callContext('IN-PROCESS', { 'a2a-version': '1.0' });
  const msg = (text: string) => userSend(text, { configuration: { returnImmediately: true } });

  it('answers RESOURCE_EXHAUSTED to a new task when running tasks fill the store', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const executor: AgentExecutor = {
      async execute(c) {
        c.working();
        await gate;
        c.complete('done');
      },
    };
    // Wrapped as metrics and tracing wrap it: the admission check must pass through.
    const store = wrapTaskStore(new InMemoryTaskStore({ maxTasks: 2 }), (_operation, call) => call());
    const handler = new RequestHandler({ card: testAgentCard(), executor, taskStore: store, logger: silentLogger });
    await handler.sendMessage(msg('one'), ctx());
    await handler.sendMessage(msg('two'), ctx());
    await expect(handler.sendMessage(msg('three'), ctx())).rejects.toMatchObject({ code: A2AErrorCode.ResourceExhausted });
    await expect(handler.sendStreamingMessage(msg('four'), ctx())).rejects.toMatchObject({ code: A2AErrorCode.ResourceExhausted });
    expect((await handler.listTasks({ tenant: '', contextId: '', status: 0, pageToken: '', statusTimestampAfter: undefined }, ctx())).tasks).toHaveLength(2);
    release();
  });
});
