import { TaskState, type SendMessageConfiguration, type SendMessageRequest, type Task } from '@a2a-polyglot/model';
import { waitFor, testAgentCard, userSend } from '@a2a-polyglot/testing';
import { A2AError, A2AErrorCode, callContext, RequestHandler, type AgentExecutor, type CallContext, silentLogger } from '../src/index.js';

const quiet = silentLogger;

/** A call context whose client can "disconnect" (abort its signal). */
function caller(): { ctx: CallContext; leave: () => void } {
  const gone = new AbortController();
  return { ctx: callContext('IN-PROCESS', { 'a2a-version': '1.0' }, { signal: gone.signal }), leave: () => gone.abort() };
}

/** A blocking send unless `configuration` says otherwise. */
function send(text: string, configuration?: Partial<SendMessageConfiguration>): SendMessageRequest {
  return userSend(text, { configuration: configuration && { returnImmediately: false, ...configuration } });
}

/** An agent that works until aborted ("ask" replies input-required at once); records its cancel hook. */
function slowAgent(): AgentExecutor & { started: string[]; hooked: string[] } {
  const started: string[] = [];
  const hooked: string[] = [];
  return {
    started,
    hooked,
    async execute(c) {
      if (c.text === 'ask') return c.requireInput('which one?');
      c.working();
      started.push(c.taskId);
      await new Promise<void>((resolve) => c.signal.addEventListener('abort', () => resolve(), { once: true }));
    },
    cancel(c) {
      hooked.push(c.taskId);
    },
  };
}

const state = async (h: RequestHandler, id: string) =>
  (await h.getTask({ tenant: '', id, historyLength: undefined }, callContext('IN-PROCESS', { 'a2a-version': '1.0' }))).status?.state;

describe('backgroundExecution: false (the task follows its caller)', () => {
  it('cancels the task of a blocking send whose caller goes away, and runs the cancel hook', async () => {
    const agent = slowAgent();
    const h = new RequestHandler({ card: testAgentCard(), executor: agent, logger: quiet, backgroundExecution: false });
    const { ctx, leave } = caller();
    const answer = h.sendMessage(send('work'), ctx);
    await waitFor(() => agent.started.length === 1, { what: 'the agent to start' });
    leave();
    await expect(answer).rejects.toBeInstanceOf(A2AError);
    const taskId = agent.started[0]!;
    await waitFor(async () => (await state(h, taskId)) === TaskState.TASK_STATE_CANCELED, { what: 'the task to be CANCELED' });
    expect(agent.hooked).toEqual([taskId]);
  });

  it('cancels the task of a streaming send whose stream is dropped', async () => {
    const agent = slowAgent();
    const h = new RequestHandler({ card: testAgentCard(), executor: agent, logger: quiet, backgroundExecution: false });
    const { ctx, leave } = caller();
    const stream = await h.sendStreamingMessage(send('work'), ctx);
    await waitFor(() => agent.started.length === 1, { what: 'the agent to start' });
    leave();
    stream.close();
    await waitFor(async () => (await state(h, agent.started[0]!)) === TaskState.TASK_STATE_CANCELED, { what: 'the task to be CANCELED' });
    expect(agent.hooked).toEqual(agent.started);
  });

  it('refuses returnImmediately with UnsupportedOperation, before any work', async () => {
    const agent = slowAgent();
    const h = new RequestHandler({ card: testAgentCard(), executor: agent, logger: quiet, backgroundExecution: false });
    const refused = await h.sendMessage(send('work', { returnImmediately: true }), caller().ctx).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(A2AError);
    expect((refused as A2AError).code).toBe(A2AErrorCode.UnsupportedOperation);
    expect((refused as A2AError).message).toMatch(/configuration\.returnImmediately/);
    expect(agent.started).toEqual([]);
    expect(h.activeRuns).toBe(0);
  });

  it('leaves an interrupted task alone: the call had its answer', async () => {
    const agent = slowAgent();
    const h = new RequestHandler({ card: testAgentCard(), executor: agent, logger: quiet, backgroundExecution: false });
    const { ctx, leave } = caller();
    const res = await h.sendMessage(send('ask'), ctx);
    const task = res.payload?.value as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    leave();
    await waitFor(() => h.activeRuns === 0, { what: 'the run to return' });
    expect(await state(h, task.id)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(agent.hooked).toEqual([]);
  });
});

describe('backgroundExecution: true (the default)', () => {
  it('keeps the task running when the blocking caller goes away, and accepts returnImmediately', async () => {
    const agent = slowAgent();
    const h = new RequestHandler({ card: testAgentCard(), executor: agent, logger: quiet });
    expect(h.backgroundExecution).toBe(true);
    const { ctx, leave } = caller();
    const answer = h.sendMessage(send('work'), ctx);
    await waitFor(() => agent.started.length === 1, { what: 'the agent to start' });
    leave();
    await expect(answer).rejects.toBeInstanceOf(A2AError);
    // A later event proves the handler had its turn to react to the abort; it did not cancel.
    const background = await h.sendMessage(send('work', { returnImmediately: true }), caller().ctx);
    expect((background.payload?.value as Task | undefined)?.status?.state).not.toBe(TaskState.TASK_STATE_CANCELED);
    await waitFor(() => agent.started.length === 2, { what: 'the background task to start' });
    expect(await state(h, agent.started[0]!)).toBe(TaskState.TASK_STATE_WORKING);
    expect(agent.hooked).toEqual([]);
    await h.shutdown(0);
  });
});
