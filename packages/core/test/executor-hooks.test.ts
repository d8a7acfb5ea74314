import { TaskState } from '@a2a-polyglot/model';
import { waitFor, userSend, testAgentCard } from '@a2a-polyglot/testing';
import { A2AErrorCode, callContext, RequestHandler, type AgentExecutor, type ExecutionContext } from '../src/index.js';

const ctx = () => callContext('IN-PROCESS', { 'a2a-version': '1.0' });

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) void _;
}

describe('ExecutionContext.streaming', () => {
  it('tells the agent which call started the run', async () => {
    const seen: boolean[] = [];
    const h = new RequestHandler({
      card: testAgentCard(),
      executor: {
        async execute(c) {
          seen.push(c.streaming);
          c.complete();
        },
      },
    });
    await h.sendMessage(userSend('a'), ctx());
    await drain(await h.sendStreamingMessage(userSend('b'), ctx()));
    expect(seen).toEqual([false, true]);
  });
});

describe('cancel hook', () => {
  it('is called for a task idle in input-required, with a non-streaming context', async () => {
    const hooked: Array<{ taskId: string; streaming: boolean; aborted: boolean }> = [];
    const executor: AgentExecutor = {
      async execute(c) {
        c.requireInput('approve?');
      },
      cancel(c: ExecutionContext) {
        hooked.push({ taskId: c.taskId, streaming: c.streaming, aborted: c.signal.aborted });
      },
    };
    const h = new RequestHandler({ card: testAgentCard(), executor });
    const res = await h.sendMessage(userSend('go'), ctx());
    const task = (res.payload as { value: { id: string; status: { state: TaskState } } }).value;
    expect(task.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    // The run returns a few ticks after reporting input-required; then the task is idle.
    await waitFor(() => h.activeRuns === 0, { what: 'the run to return' });
    const canceled = await h.cancelTask({ tenant: '', id: task.id, metadata: undefined }, ctx());
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(hooked).toEqual([{ taskId: task.id, streaming: false, aborted: true }]);
  });

  it('a failing hook does not keep an idle task from being canceled', async () => {
    const h = new RequestHandler({
      card: testAgentCard(),
      executor: {
        async execute(c) {
          c.requireInput('more?');
        },
        cancel() {
          throw new Error('upstream gone');
        },
      },
    });
    const res = await h.sendMessage(userSend('go'), ctx());
    const id = (res.payload as { value: { id: string } }).value.id;
    const canceled = await h.cancelTask({ tenant: '', id, metadata: undefined }, ctx());
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });
});

describe('cancel hook racing the executor', () => {
  it('an executor that returns on abort while a slow hook runs still ends CANCELED', async () => {
    const h = new RequestHandler({
      card: testAgentCard(),
      executor: {
        async execute(c) {
          c.working();
          await new Promise((resolve) => c.signal.addEventListener('abort', resolve, { once: true }));
          // returns at once, like a bridge whose upstream read was aborted
        },
        async cancel() {
          await new Promise((r) => setTimeout(r, 50)); // the hook's simulated work, e.g. POST /stop to an upstream
        },
      },
    });
    const res = await h.sendMessage(userSend('go', { configuration: { returnImmediately: true } }), ctx());
    const id = (res.payload as { value: { id: string } }).value.id;
    const canceled = await h.cancelTask({ tenant: '', id, metadata: undefined }, ctx());
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const stored = await h.getTask({ tenant: '', id, historyLength: undefined }, ctx());
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });
});

describe('cancel hook that reports CANCELED itself (the a2a-python pattern)', () => {
  const reportsCanceled: AgentExecutor['cancel'] = (c) => c.setStatus(TaskState.TASK_STATE_CANCELED, 'stopped by the agent');

  it('a running task: CancelTask succeeds and answers the canceled task', async () => {
    const h = new RequestHandler({
      card: testAgentCard(),
      executor: {
        async execute(c) {
          c.working();
          await new Promise((resolve) => c.signal.addEventListener('abort', resolve, { once: true }));
        },
        cancel: reportsCanceled,
      },
    });
    const res = await h.sendMessage(userSend('go', { configuration: { returnImmediately: true } }), ctx());
    const id = (res.payload as { value: { id: string } }).value.id;
    const canceled = await h.cancelTask({ tenant: '', id, metadata: undefined }, ctx());
    expect(canceled).toMatchObject({ id, status: { state: TaskState.TASK_STATE_CANCELED } });
    const stored = await h.getTask({ tenant: '', id, historyLength: undefined }, ctx());
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('an idle input-required task: CancelTask succeeds and answers the canceled task', async () => {
    const h = new RequestHandler({
      card: testAgentCard(),
      executor: {
        async execute(c) {
          c.requireInput('approve?');
        },
        cancel: reportsCanceled,
      },
    });
    const res = await h.sendMessage(userSend('go'), ctx());
    const id = (res.payload as { value: { id: string } }).value.id;
    const canceled = await h.cancelTask({ tenant: '', id, metadata: undefined }, ctx());
    expect(canceled).toMatchObject({ id, status: { state: TaskState.TASK_STATE_CANCELED } });
    const stored = await h.getTask({ tenant: '', id, historyLength: undefined }, ctx());
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('a hook that completes the task instead still answers TaskNotCancelable', async () => {
    const h = new RequestHandler({
      card: testAgentCard(),
      executor: {
        async execute(c) {
          c.working();
          await new Promise((resolve) => c.signal.addEventListener('abort', resolve, { once: true }));
        },
        cancel: (c) => c.complete('too late, done'),
      },
    });
    const res = await h.sendMessage(userSend('go', { configuration: { returnImmediately: true } }), ctx());
    const id = (res.payload as { value: { id: string } }).value.id;
    await expect(h.cancelTask({ tenant: '', id, metadata: undefined }, ctx())).rejects.toMatchObject({ code: A2AErrorCode.TaskNotCancelable });
  });
});

describe('a synchronous cancel hook', () => {
  it('adds no turn: an agent that goes on after the abort cannot complete the task before CANCELED', async () => {
    let hooked = 0;
    const h = new RequestHandler({
      card: testAgentCard(),
      executor: {
        async execute(c) {
          c.working();
          await new Promise((resolve) => c.signal.addEventListener('abort', resolve, { once: true }));
          c.complete('must not win');
        },
        cancel() {
          hooked++;
        },
      },
    });
    const res = await h.sendMessage(userSend('go', { configuration: { returnImmediately: true } }), ctx());
    const id = (res.payload as { value: { id: string } }).value.id;
    const canceled = await h.cancelTask({ tenant: '', id, metadata: undefined }, ctx());
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(hooked).toBe(1);
  });
});
