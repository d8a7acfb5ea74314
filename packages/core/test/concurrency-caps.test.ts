import { TaskState } from '@a2a-polyglot/model';
import { testAgentCard, userSend, waitFor } from '@a2a-polyglot/testing';
import { A2AError, A2AErrorCode, ApiKeyAuthenticator, callContext, RequestHandler, retryAfterSeconds, type AgentExecutor } from '../src/index.js';

/** An agent whose "hold" runs until the test lets it go; "ask" asks for input; "boom" throws. */
function heldAgent(): AgentExecutor & { release: () => void } {
  let release: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => (release = resolve));
  const agent = {
    release: () => {
      release();
      gate = new Promise<void>((resolve) => (release = resolve));
    },
    async execute(c: Parameters<AgentExecutor['execute']>[0]) {
      if (c.text === 'ask') return c.requireInput('which one?');
      if (c.text === 'boom') throw new Error('boom');
      c.working();
      await gate;
      c.complete('done');
    },
  };
  return agent;
}

const ctx = (key?: string) => callContext('IN-PROCESS', { 'a2a-version': '1.0', ...(key && { 'x-api-key': key }) });
const background = (text: string, taskId?: string) => userSend(text, { taskId, configuration: { returnImmediately: true } });
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as A2AError,
  );

describe('RequestHandler concurrency caps', () => {
  it('refuses a send past maxConcurrentTasks with ResourceExhausted and a retry hint, storing nothing, until a run ends', async () => {
    const executor = heldAgent();
    const handler = new RequestHandler({ card: testAgentCard(), executor, maxConcurrentTasks: 1 });
    await handler.sendMessage(background('hold'), ctx());
    const error = await refusal(handler.sendMessage(background('hold'), ctx()));
    expect(error).toBeInstanceOf(A2AError);
    expect(error?.code).toBe(A2AErrorCode.ResourceExhausted);
    expect(error && retryAfterSeconds(error)).toBe(1);
    expect(error?.metadata.scope).toBe('agent-tasks');
    expect((await handler.listTasks({ tenant: '', contextId: '', status: 0, pageToken: '', statusTimestampAfter: undefined }, ctx())).tasks).toHaveLength(1);
    executor.release();
    await waitFor(() => handler.activeRuns === 0);
    await expect(handler.sendMessage(background('hold'), ctx())).resolves.toBeDefined();
    executor.release();
    await waitFor(() => handler.activeRuns === 0);
  });

  it('counts follow-ups, and gives the slot back when a run asks for input or throws', async () => {
    const executor = heldAgent();
    const handler = new RequestHandler({ card: testAgentCard(), executor, maxConcurrentTasks: 1 });
    const asked: any = await handler.sendMessage(userSend('ask'), ctx());
    const askedTask = asked.payload.value;
    expect(askedTask.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    await waitFor(() => handler.activeRuns === 0);
    await handler.sendMessage(userSend('boom'), ctx()).catch(() => undefined);
    await waitFor(() => handler.activeRuns === 0);
    await handler.sendMessage(background('hold'), ctx());
    const error = await refusal(handler.sendMessage(background('go on', askedTask.id), ctx()));
    expect(error?.code).toBe(A2AErrorCode.ResourceExhausted);
    executor.release();
    await waitFor(() => handler.activeRuns === 0);
    await expect(handler.sendMessage(background('hold', askedTask.id), ctx())).resolves.toBeDefined();
    executor.release();
    await waitFor(() => handler.activeRuns === 0);
  });

  it('caps each identity with maxConcurrentTasksPerIdentity', async () => {
    const executor = heldAgent();
    const authenticator = new ApiKeyAuthenticator({ keys: { k1: 'alice', k2: 'bob' } });
    const handler = new RequestHandler({ card: testAgentCard(), executor, authenticator, maxConcurrentTasksPerIdentity: 1 });
    await handler.sendMessage(background('hold'), ctx('k1'));
    const error = await refusal(handler.sendMessage(background('hold'), ctx('k1')));
    expect(error?.code).toBe(A2AErrorCode.ResourceExhausted);
    expect(error?.metadata.scope).toBe('identity-tasks');
    await expect(handler.sendMessage(background('hold'), ctx('k2'))).resolves.toBeDefined();
    executor.release();
    await waitFor(() => handler.activeRuns === 0);
    await expect(handler.sendMessage(background('hold'), ctx('k1'))).resolves.toBeDefined();
    executor.release();
    await waitFor(() => handler.activeRuns === 0);
  });
});
