import { TaskState, type Task } from '@a2a-polyglot/model';
import { userSend, testAgentCard, waitFor } from '@a2a-polyglot/testing';
import {
  A2AError,
  A2AErrorCode,
  ApiKeyAuthenticator,
  callContext,
  InMemoryTaskStore,
  RequestHandler,
  silentLogger,
  type AgentExecutor,
  type StoredTask,
} from '../src/index.js';

/**
 * Ownership is checked before any other rule: for every operation that names a task, bob
 * naming alice's task gets exactly the answer of a task that does not exist (same code, same
 * message and metadata once the id he sent is taken out), whatever state alice's task is in.
 */

const alice = () => callContext('IN-PROCESS', { 'a2a-version': '1.0', 'x-api-key': 'ka' });
const bob = () => callContext('IN-PROCESS', { 'a2a-version': '1.0', 'x-api-key': 'kb' });
const UNKNOWN = 'no-such-task';

const msg = (text: string, taskId = '') => userSend(text, { taskId, configuration: { returnImmediately: true } });

/** 'run' parks until canceled, 'ask' asks for input, anything else completes. */
const executor: AgentExecutor = {
  async execute(c) {
    if (c.text === 'run') {
      c.working();
      await new Promise((resolve) => c.signal.addEventListener('abort', resolve, { once: true }));
    } else if (c.text === 'ask') {
      c.requireInput('more?');
    } else {
      c.complete('done');
    }
  },
};

/** A store whose next `get` can be held, to catch a follow-up in the middle of its setup. */
class HoldableStore extends InMemoryTaskStore {
  private held: { reached: () => void; release: Promise<void> } | undefined;

  /** Holds the next get until `release` resolves; resolves when that get has started. */
  holdNextGet(release: Promise<void>): Promise<void> {
    return new Promise((reached) => (this.held = { reached, release }));
  }

  override async get(tenant: string, taskId: string): Promise<StoredTask | undefined> {
    const held = this.held;
    if (held) {
      this.held = undefined;
      held.reached();
      await held.release;
    }
    return super.get(tenant, taskId);
  }
}

function handler(store = new InMemoryTaskStore()): RequestHandler {
  return new RequestHandler({
    card: testAgentCard(),
    executor,
    taskStore: store,
    logger: silentLogger,
    authenticator: new ApiKeyAuthenticator({ keys: { ka: 'alice', kb: 'bob' } }),
  });
}

async function start(h: RequestHandler, text: string): Promise<Task> {
  const res = await h.sendMessage(msg(text), alice());
  const task = res.payload!.value as Task;
  // 'ask' returns at once after reporting input-required; wait until the task sits idle.
  if (text === 'ask') await waitFor(() => h.activeRuns === 0, { what: "the 'ask' run to end" });
  return task;
}

function shape(error: unknown, id: string): unknown {
  if (!(error instanceof A2AError)) return { notAnA2AError: String(error) };
  const hide = (s: string) => s.split(id).join('<id>');
  return { code: error.code, message: hide(error.message), metadata: hide(JSON.stringify(error.metadata)), fieldViolations: error.fieldViolations };
}

/** `call` on alice's task, as bob, fails exactly as on a task that does not exist. */
async function expectLikeUnknown(call: (id: string) => Promise<unknown>, aliceTaskId: string): Promise<void> {
  const foreign = await call(aliceTaskId).then(
    (result) => ({ succeeded: result }),
    (error: unknown) => shape(error, aliceTaskId),
  );
  const unknown = await call(UNKNOWN).then(
    (result) => ({ succeeded: result }),
    (error: unknown) => shape(error, UNKNOWN),
  );
  expect(unknown).toMatchObject({ code: A2AErrorCode.TaskNotFound });
  expect(foreign).toEqual(unknown);
}

const CALLS: Record<string, (h: RequestHandler) => (id: string) => Promise<unknown>> = {
  'SendMessage (follow-up)': (h) => (id) => h.sendMessage(msg('hi', id), bob()),
  'SendStreamingMessage (follow-up)': (h) => (id) => h.sendStreamingMessage(msg('hi', id), bob()),
  GetTask: (h) => (id) => h.getTask({ tenant: '', id, historyLength: undefined }, bob()),
  CancelTask: (h) => (id) => h.cancelTask({ tenant: '', id, metadata: undefined }, bob()),
  SubscribeToTask: (h) => (id) => h.subscribeToTask({ tenant: '', id }, bob()),
  CreateTaskPushNotificationConfig: (h) => (id) =>
    h.createTaskPushNotificationConfig({ tenant: '', id: '', taskId: id, url: 'https://hooks.example/x', token: '', authentication: undefined }, bob()),
  GetTaskPushNotificationConfig: (h) => (id) => h.getTaskPushNotificationConfig({ tenant: '', taskId: id, id: 'c1' }, bob()),
  ListTaskPushNotificationConfigs: (h) => (id) => h.listTaskPushNotificationConfigs({ tenant: '', taskId: id, pageSize: 0, pageToken: '' }, bob()),
  DeleteTaskPushNotificationConfig: (h) => (id) => h.deleteTaskPushNotificationConfig({ tenant: '', taskId: id, id: 'c1' }, bob()),
};

describe.each(['run', 'ask', 'done'])('bob naming alice\'s task (agent "%s": working, input-required, completed)', (text) => {
  it.each(Object.keys(CALLS))('%s answers like an unknown task', async (name) => {
    const h = handler();
    const task = await start(h, text);
    await h.createTaskPushNotificationConfig(
      { tenant: '', id: 'c1', taskId: task.id, url: 'https://hooks.example/a', token: '', authentication: undefined },
      alice(),
    );
    await expectLikeUnknown(CALLS[name]!(h), task.id);
    // Alice's task is untouched and still hers.
    await expect(h.getTask({ tenant: '', id: task.id, historyLength: undefined }, alice())).resolves.toMatchObject({ id: task.id });
    await h.shutdown(0);
  });
});

describe("bob naming alice's task while her follow-up is being set up", () => {
  it.each(['SendMessage (follow-up)', 'CancelTask'])('%s answers like an unknown task', async (name) => {
    const store = new HoldableStore();
    const h = handler(store);
    const task = await start(h, 'ask');
    let release!: () => void;
    const reached = store.holdNextGet(new Promise<void>((r) => (release = r)));
    const followUp = h.sendMessage(msg('run', task.id), alice());
    await reached; // alice's follow-up now holds the task reserved
    try {
      await expectLikeUnknown(CALLS[name]!(h), task.id);
    } finally {
      release();
    }
    await followUp;
    await h.shutdown(0);
  });
});

describe('ListTasks filters', () => {
  it("a filter on alice's context lists nothing for bob, as an unknown context does", async () => {
    const h = handler();
    const task = await start(h, 'done');
    const list = (contextId: string) =>
      h.listTasks({ tenant: '', contextId, status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: '', statusTimestampAfter: undefined }, bob());
    const foreign = await list(task.contextId);
    expect(foreign).toEqual(await list('no-such-context'));
    expect(foreign).toMatchObject({ tasks: [], totalSize: 0 });
    const mine = await h.listTasks(
      { tenant: '', contextId: task.contextId, status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: '', statusTimestampAfter: undefined },
      alice(),
    );
    expect(mine.tasks.map((t) => t.id)).toEqual([task.id]);
  });
});
