import { TaskState, type Task } from '@a2a-polyglot/model';
import { userSend, testAgentCard } from '@a2a-polyglot/testing';
import {
  A2AError,
  A2AErrorCode,
  ApiKeyAuthenticator,
  callContext,
  InMemoryEventLog,
  InMemoryTaskStore,
  RequestHandler,
  silentLogger,
  type AgentExecutor,
  type LoggedEvent,
} from '../src/index.js';

const v1 = { 'a2a-version': '1.0' };
const ctx = (headers: Record<string, string> = {}, pathTenant?: string) => callContext('IN-PROCESS', { ...v1, ...headers }, { pathTenant });
const msg = (text: string, taskId = '', contextId = '') => userSend(text, { taskId, contextId });
const taskOf = (res: { payload?: { $case: string; value: unknown } }) => res.payload!.value as Task;
const quick: AgentExecutor = {
  async execute(c) {
    c.complete(c.text);
  },
};

describe('capability gating', () => {
  const off = new RequestHandler({
    card: testAgentCard({ capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false, extensions: [] } }),
    executor: quick,
    logger: silentLogger,
  });
  it('streaming off ⇒ UnsupportedOperation on both streaming methods', async () => {
    await expect(off.sendStreamingMessage(msg('x'), ctx())).rejects.toMatchObject({ code: A2AErrorCode.UnsupportedOperation });
    await expect(off.subscribeToTask({ tenant: '', id: 'x' }, ctx())).rejects.toMatchObject({ code: A2AErrorCode.UnsupportedOperation });
  });
  it('push off ⇒ PushNotificationNotSupported on all four push operations', async () => {
    const code = { code: A2AErrorCode.PushNotificationNotSupported };
    await expect(
      off.createTaskPushNotificationConfig({ tenant: '', id: '', taskId: 't', url: 'https://x.example', token: '', authentication: undefined }, ctx()),
    ).rejects.toMatchObject(code);
    await expect(off.getTaskPushNotificationConfig({ tenant: '', taskId: 't', id: 'c' }, ctx())).rejects.toMatchObject(code);
    await expect(off.listTaskPushNotificationConfigs({ tenant: '', taskId: 't', pageSize: 0, pageToken: '' }, ctx())).rejects.toMatchObject(code);
    await expect(off.deleteTaskPushNotificationConfig({ tenant: '', taskId: 't', id: 'c' }, ctx())).rejects.toMatchObject(code);
  });
  it('extended card off ⇒ UnsupportedOperation; on without a provider ⇒ ExtendedAgentCardNotConfigured', async () => {
    await expect(off.getExtendedAgentCard({ tenant: '' }, ctx())).rejects.toMatchObject({ code: A2AErrorCode.UnsupportedOperation });
    const on = new RequestHandler({
      card: testAgentCard({ capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true, extensions: [] } }),
      executor: quick,
    });
    await expect(on.getExtendedAgentCard({ tenant: '' }, ctx())).rejects.toMatchObject({ code: A2AErrorCode.ExtendedAgentCardNotConfigured });
  });
});

describe('identity and scoping', () => {
  it('rejects unknown versions and echoes activated extensions; required extensions are enforced', async () => {
    const card = testAgentCard({
      capabilities: {
        streaming: true,
        pushNotifications: true,
        extendedAgentCard: false,
        extensions: [{ uri: 'urn:x', description: '', required: true, params: undefined }],
      },
    });
    const h = new RequestHandler({ card, executor: quick, logger: silentLogger });
    await expect(h.sendMessage(msg('x'), ctx({ 'a2a-version': '0.3' }))).rejects.toMatchObject({ code: A2AErrorCode.VersionNotSupported });
    await expect(h.sendMessage(msg('x'), ctx())).rejects.toMatchObject({ code: A2AErrorCode.ExtensionSupportRequired });
    const c = ctx({ 'A2A-Extensions': 'urn:x, urn:unknown' });
    await h.sendMessage(msg('x'), c);
    expect(c.activatedExtensions).toEqual(['urn:x']);
  });

  it('authenticates every operation and scopes tasks to their owner', async () => {
    const h = new RequestHandler({
      card: testAgentCard(),
      executor: quick,
      authenticator: new ApiKeyAuthenticator({ keys: { ka: 'alice', kb: 'bob' } }),
      logger: silentLogger,
    });
    await expect(h.sendMessage(msg('x'), ctx())).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated });
    await expect(h.sendMessage(msg('x'), ctx({ authorization: 'Bearer wrong' }))).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated });
    const task = taskOf(await h.sendMessage(msg('x'), ctx({ authorization: 'Bearer ka' })));
    await expect(h.getTask({ tenant: '', id: task.id }, ctx({ 'x-api-key': 'ka' }))).resolves.toMatchObject({ id: task.id });
    await expect(h.getTask({ tenant: '', id: task.id }, ctx({ 'x-api-key': 'kb' }))).rejects.toMatchObject({ code: A2AErrorCode.TaskNotFound });
    expect(
      (await h.listTasks({ tenant: '', contextId: '', status: 0, pageToken: '', statusTimestampAfter: undefined }, ctx({ 'x-api-key': 'kb' }))).tasks,
    ).toEqual([]);
  });

  it('keeps tenants apart; the path tenant wins over the request field', async () => {
    const h = new RequestHandler({ card: testAgentCard(), executor: quick, logger: silentLogger });
    const task = taskOf(await h.sendMessage({ ...msg('x'), tenant: 'body' }, ctx({}, 'acme')));
    await expect(h.getTask({ tenant: 'acme', id: task.id }, ctx())).resolves.toMatchObject({ id: task.id });
    await expect(h.getTask({ tenant: 'body', id: task.id }, ctx())).rejects.toMatchObject({ code: A2AErrorCode.TaskNotFound });
    await expect(h.getTask({ tenant: '', id: task.id }, ctx())).rejects.toMatchObject({ code: A2AErrorCode.TaskNotFound });
  });
});

describe('task and context ids', () => {
  const h = new RequestHandler({
    card: testAgentCard(),
    executor: {
      async execute(c) {
        c.requireInput('more?');
      },
    },
    logger: silentLogger,
  });
  it('infers the contextId from the task and rejects a mismatch', async () => {
    const task = taskOf(await h.sendMessage(msg('x', '', 'my-context'), ctx()));
    expect(task.contextId).toBe('my-context');
    await expect(h.sendMessage(msg('y', task.id, 'other'), ctx())).rejects.toMatchObject({ code: A2AErrorCode.InvalidParams });
    const again = taskOf(await h.sendMessage(msg('y', task.id), ctx()));
    expect(again.contextId).toBe('my-context');
  });
  it('applies historyLength', async () => {
    const task = taskOf(await h.sendMessage(msg('x'), ctx()));
    expect((await h.getTask({ tenant: '', id: task.id, historyLength: 0 }, ctx())).history).toEqual([]);
    expect((await h.getTask({ tenant: '', id: task.id, historyLength: 1 }, ctx())).history).toHaveLength(1);
    expect((await h.getTask({ tenant: '', id: task.id }, ctx())).history).toHaveLength(2);
    await expect(h.getTask({ tenant: '', id: task.id, historyLength: -1 }, ctx())).rejects.toMatchObject({ code: A2AErrorCode.InvalidParams });
  });
  it('validates ListTasks page sizes', async () => {
    const base = { tenant: '', contextId: '', status: 0, pageToken: '', statusTimestampAfter: undefined };
    await expect(h.listTasks({ ...base, pageSize: 0 }, ctx())).rejects.toMatchObject({ code: A2AErrorCode.InvalidParams });
    await expect(h.listTasks({ ...base, pageSize: 101 }, ctx())).rejects.toMatchObject({ code: A2AErrorCode.InvalidParams });
    await expect(h.listTasks({ ...base, pageSize: 100 }, ctx())).resolves.toMatchObject({ pageSize: 100 });
  });
});

describe('agent failure modes', () => {
  const run = async (executor: AgentExecutor) =>
    taskOf(await new RequestHandler({ card: testAgentCard(), executor, logger: silentLogger }).sendMessage(msg('x'), ctx()));
  it('a throwing agent fails the task without leaking the error', async () => {
    const task = await run({
      async execute() {
        throw new Error('secret internals');
      },
    });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(JSON.stringify(task)).not.toContain('secret internals');
  });
  it('returning completes the task: also when the agent reported nothing (as the AgentExecutor contract and the README say)', async () => {
    const silent = await run({ async execute() {} });
    expect(silent.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(silent.status?.message).toBeUndefined();
    expect(
      (
        await run({
          async execute(c) {
            c.working();
          },
        })
      ).status?.state,
    ).toBe(TaskState.TASK_STATE_COMPLETED);
    const thrown = await run({
      async execute() {
        throw new Error('before any report');
      },
    });
    expect(thrown.status?.state).toBe(TaskState.TASK_STATE_FAILED);
  });
  it('events after a terminal state are ignored, and reply after task events is refused', async () => {
    let replyError: unknown;
    const task = await run({
      async execute(c) {
        c.complete('done');
        c.fail('too late');
        c.artifact({ text: 'late' });
        try {
          c.reply('x');
        } catch (e) {
          replyError = e;
        }
      },
    });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts).toEqual([]);
    expect(replyError).toMatchObject({ code: A2AErrorCode.InvalidAgentResponse });
  });
});

describe('bounded memory and fairness', () => {
  it('a subscriber that never reads neither blocks the agent nor stalls another subscriber', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const h = new RequestHandler({
      card: testAgentCard(),
      logger: silentLogger,
      executor: {
        async execute(c) {
          c.working();
          await gate;
          for (let i = 0; i < 2000; i++) c.artifact({ artifactId: 'a', text: 'x', append: i > 0 });
          c.complete();
        },
      },
    });
    const first = await h.sendMessage(
      { ...msg('go'), configuration: { acceptedOutputModes: [], returnImmediately: true, taskPushNotificationConfig: undefined } },
      ctx(),
    );
    const id = taskOf(first).id;
    const slow = await h.subscribeToTask({ tenant: '', id }, ctx());
    const slowIt = slow[Symbol.asyncIterator]();
    await slowIt.next(); // reads the snapshot, then stops reading
    const fast = await h.subscribeToTask({ tenant: '', id }, ctx());
    release();
    const seen: LoggedEvent[] = [];
    for await (const e of fast) seen.push(e);
    expect(seen.at(-1)?.event.payload?.$case).toBe('statusUpdate');
    expect((await h.getTask({ tenant: '', id }, ctx())).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    slow.close();
    expect((await slowIt.next()).done).toBe(true);
  });

  it('shutdown fails unfinished tasks visibly and refuses new work', async () => {
    const h = new RequestHandler({
      card: testAgentCard(),
      logger: silentLogger,
      executor: {
        async execute(c) {
          c.working();
          await new Promise((r) => c.signal.addEventListener('abort', r));
        },
      },
    });
    const task = taskOf(
      await h.sendMessage({ ...msg('x'), configuration: { acceptedOutputModes: [], returnImmediately: true, taskPushNotificationConfig: undefined } }, ctx()),
    );
    await h.shutdown(10);
    await expect(h.sendMessage(msg('y'), ctx())).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
    const stored = await (h as unknown as { store: { get(t: string, id: string): Promise<{ task: Task }> } }).store.get('', task.id);
    expect(stored.task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(stored.task.status?.message?.parts[0]?.content).toMatchObject({ value: expect.stringContaining('shut down') });
  });

  it('shutdown leaves no grace timer behind once tasks have finished', async () => {
    const h = new RequestHandler({ card: testAgentCard(), executor: quick, logger: silentLogger });
    await h.sendMessage(msg('done'), ctx());
    jest.useFakeTimers();
    try {
      await h.shutdown(60_000);
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('streaming send with the event log unreachable', () => {
  it('answers Unavailable before anything is stored or executed (a retry is safe)', async () => {
    const store = new InMemoryTaskStore();
    const log = new InMemoryEventLog();
    log.lastSeq = () => Promise.reject(new Error('connection refused'));
    let executed = 0;
    const h = new RequestHandler({
      card: testAgentCard(),
      executor: {
        async execute(c) {
          executed++;
          c.complete(c.text);
        },
      },
      taskStore: store,
      eventLog: log,
      logger: silentLogger,
    });
    await expect(h.sendStreamingMessage(msg('x'), ctx())).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
    expect(executed).toBe(0);
    expect((await store.list({ tenant: '', pageSize: 10, pageToken: '' })).tasks).toHaveLength(0);
  });
});

describe('streaming send when the event log fails after the send was accepted', () => {
  it('names the task (from the store) before reporting the failure, so the client learns its id', async () => {
    const store = new InMemoryTaskStore();
    const log = new InMemoryEventLog();
    log.readAfter = () => {
      throw new A2AError(A2AErrorCode.Unavailable, 'The event log is unavailable; retry later');
    };
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const slow: AgentExecutor = {
      async execute(c) {
        c.working();
        await released;
        c.complete(c.text);
      },
    };
    const h = new RequestHandler({ card: testAgentCard(), executor: slow, taskStore: store, eventLog: log, logger: silentLogger });
    const stream = await h.sendStreamingMessage(msg('x'), ctx());
    const seen: string[] = [];
    let failure: unknown;
    try {
      for await (const { event } of stream) seen.push(event.payload!.$case === 'task' ? `task ${event.payload!.value.id}` : event.payload!.$case);
    } catch (error) {
      failure = error;
    }
    release();
    const stored = (await store.list({ tenant: '', pageSize: 10, pageToken: '' })).tasks.map((t) => t.task.id);
    expect(stored).toHaveLength(1);
    expect(seen).toEqual([`task ${stored[0]}`]);
    expect(failure).toMatchObject({ code: A2AErrorCode.Unavailable });
    await h.shutdown(1000);
  });
});
