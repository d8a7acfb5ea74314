/**
 * The experimental A2A 1.1 draft in the core: the `generation` of tasks and events (1:1 with
 * the event numbers), only on answers of calls naming 1.1 on a handler that opted in; the
 * GetTask long poll on `currentGeneration`; conditional follow-ups (`ifGenerationMatch`),
 * in one process and between two instances sharing a store and a log.
 */
import { ListTasksRequest, TaskState, type SendMessageResponse, type StreamResponse, type Task } from '@a2a-polyglot/model';
import { Gates, testAgentCard, userSend, waitFor } from '@a2a-polyglot/testing';
import {
  A2AError,
  A2AErrorCode,
  callContext,
  InMemoryEventLog,
  InMemoryTaskStore,
  RequestHandler,
  silentLogger,
  taskLogKey,
  type AgentExecutor,
  type LoggedEvent,
  type RequestHandlerOptions,
} from '../src/index.js';

const V10 = { 'a2a-version': '1.0' };
const V11 = { 'a2a-version': '1.1' };
const ctx = (headers: Record<string, string>, signal?: AbortSignal) => callContext('IN-PROCESS', headers, { signal });
const taskOf = (res: SendMessageResponse) => res.payload?.value as Task;

/**
 * `ask` asks for input; `gate K` works, then waits at gate K and adds an artifact; anything
 * else works, adds an artifact and completes. A follow-up works, adds an artifact, completes;
 * one starting with `again` works and asks again (so a follow-up that lost a race would find
 * the task interrupted again: the lost update the condition prevents).
 */
function agent(gates = new Gates()): AgentExecutor {
  return {
    async execute(c) {
      if (c.task && c.text.startsWith('again')) {
        c.working();
        return c.requireInput('and then?');
      }
      if (c.task) {
        c.working('answer received');
        c.artifact({ text: `echo ${c.text}` });
        c.complete();
        return;
      }
      if (c.text === 'ask') return c.requireInput('what?');
      c.working();
      const gate = /^gate (\w+)$/.exec(c.text)?.[1];
      if (gate) await gates.wait(gate, c.signal);
      c.artifact({ text: 'out' });
      c.complete();
    },
  };
}

/** An in-memory log that counts the waits of readers (so a test can act while a poll provably waits). */
class CountingLog extends InMemoryEventLog {
  waits = 0;
  override waitFor(key: string, afterSeq: number, signal: AbortSignal): Promise<void> {
    this.waits++;
    return super.waitFor(key, afterSeq, signal);
  }
}

function handler(options: Partial<RequestHandlerOptions> = {}): RequestHandler {
  return new RequestHandler({ card: testAgentCard(), executor: agent(), logger: silentLogger, experimental11: true, ...options });
}

async function drain(stream: AsyncIterable<LoggedEvent>): Promise<LoggedEvent[]> {
  const out: LoggedEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

const generationOf = (event: StreamResponse) => {
  const p = event.payload;
  return p?.$case === 'message' ? undefined : p?.value.generation;
};

describe('A2A 1.1 is opt-in', () => {
  it('a handler without experimental11 refuses A2A-Version 1.1 with VersionNotSupported; one with it serves 1.1', async () => {
    const off = handler({ experimental11: false });
    await expect(off.sendMessage(userSend('hi'), ctx(V11))).rejects.toMatchObject({
      code: A2AErrorCode.VersionNotSupported,
      message: expect.stringMatching(/1\.1 .*not enabled/),
    });
    expect(off.experimental11).toBe(false);
    const on = handler();
    expect(on.experimental11).toBe(true);
    expect(taskOf(await on.sendMessage(userSend('hi'), ctx({ 'a2a-version': '1.1.0' }))).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});

describe('generation on tasks and events', () => {
  it('1.1 answers carry it (1 at creation, one more per event, equal to the event seq); 1.0 answers never do', async () => {
    const h = handler();
    // created (1), working (2), artifact (3), completed (4)
    const sent = taskOf(await h.sendMessage(userSend('hi'), ctx(V11)));
    expect(sent.generation).toBe('4');
    const plain = taskOf(await h.sendMessage(userSend('hi'), ctx(V10)));
    expect(plain.generation).toBeUndefined();
    expect('generation' in plain).toBe(false);

    expect((await h.getTask({ tenant: '', id: sent.id }, ctx(V11))).generation).toBe('4');
    expect((await h.getTask({ tenant: '', id: sent.id }, ctx(V10))).generation).toBeUndefined();
    const listed = await h.listTasks(ListTasksRequest.fromPartial({}), ctx(V11));
    expect(listed.tasks.map((t) => t.generation)).toEqual(['4', '4']);
    const listed10 = await h.listTasks(ListTasksRequest.fromPartial({}), ctx(V10));
    expect(listed10.tasks.map((t) => t.generation)).toEqual([undefined, undefined]);

    const events = await drain(await h.sendStreamingMessage(userSend('hi'), ctx(V11)));
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(events.map((e) => generationOf(e.event))).toEqual(['1', '2', '3', '4']);
    const events10 = await drain(await h.sendStreamingMessage(userSend('hi'), ctx(V10)));
    expect(events10.map((e) => generationOf(e.event))).toEqual([undefined, undefined, undefined, undefined]);
    await h.shutdown(0);
  });

  it('a 1.1 stream does not change the events other readers get (the logged events are shared)', async () => {
    const gates = new Gates();
    const log = new InMemoryEventLog();
    const h = handler({ executor: agent(gates), eventLog: log });
    const task = taskOf(await h.sendMessage(userSend('gate a', { configuration: { returnImmediately: true } }), ctx(V10)));
    await waitFor(() => gates.reached('a'));
    const v11 = await h.subscribeToTask({ tenant: '', id: task.id }, ctx(V11));
    const v10 = await h.subscribeToTask({ tenant: '', id: task.id }, ctx(V10));
    gates.open('a');
    const [with11, with10] = await Promise.all([drain(v11), drain(v10)]);
    expect(with11.map((e) => generationOf(e.event))).toEqual(['2', '3', '4']);
    expect(with10.map((e) => generationOf(e.event))).toEqual([undefined, undefined, undefined]);
    expect(log.readAfter(taskLogKey('', task.id), 0).events.every((e) => generationOf(e.event) === undefined)).toBe(true);
    await h.shutdown(0);
  });

  it('CancelTask answers a 1.1 call with the generation of the CANCELED task', async () => {
    const gates = new Gates();
    const h = handler({ executor: agent(gates) });
    const task = taskOf(await h.sendMessage(userSend('gate never', { configuration: { returnImmediately: true } }), ctx(V10)));
    await waitFor(() => gates.reached('never'));
    const canceled = await h.cancelTask({ tenant: '', id: task.id, metadata: undefined }, ctx(V11));
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(canceled.generation).toBe('3'); // created, working, canceled
    await h.shutdown(0);
  });
});

describe('GetTask long poll (currentGeneration)', () => {
  it('holds the call until the task passes the generation, then answers with the new one', async () => {
    const gates = new Gates();
    const log = new CountingLog();
    const h = handler({ executor: agent(gates), eventLog: log });
    const task = taskOf(await h.sendMessage(userSend('gate a', { configuration: { returnImmediately: true } }), ctx(V11)));
    await waitFor(() => gates.reached('a'));
    expect((await h.getTask({ tenant: '', id: task.id }, ctx(V11))).generation).toBe('2');
    const polled = h.getTask({ tenant: '', id: task.id, currentGeneration: '2' }, ctx(V11));
    await waitFor(() => log.waits > 0, { what: 'the poll to wait on the log' });
    gates.open('a');
    const answer = await polled;
    expect(Number(answer.generation)).toBeGreaterThan(2);
    await h.shutdown(0);
  });

  it('answers at once when the task is already past it, or terminal; 1.0 calls ignore the field', async () => {
    const gates = new Gates();
    const h = handler({ executor: agent(gates), longPollMaxMs: 60_000 });
    const running = taskOf(await h.sendMessage(userSend('gate a', { configuration: { returnImmediately: true } }), ctx(V11)));
    await waitFor(() => gates.reached('a'));
    expect((await h.getTask({ tenant: '', id: running.id, currentGeneration: '1' }, ctx(V11))).generation).toBe('2');
    expect((await h.getTask({ tenant: '', id: running.id, currentGeneration: '9' }, ctx(V10))).generation).toBeUndefined();
    const done = taskOf(await h.sendMessage(userSend('hi'), ctx(V11)));
    expect((await h.getTask({ tenant: '', id: done.id, currentGeneration: '4' }, ctx(V11))).generation).toBe('4');
    gates.open('a');
    await h.shutdown(0);
  });

  it('answers the task as it is when the bound runs out, or when the caller goes away', async () => {
    const gates = new Gates();
    const h = handler({ executor: agent(gates), longPollMaxMs: 20 });
    const task = taskOf(await h.sendMessage(userSend('gate a', { configuration: { returnImmediately: true } }), ctx(V11)));
    await waitFor(() => gates.reached('a'));
    expect((await h.getTask({ tenant: '', id: task.id, currentGeneration: '2' }, ctx(V11))).generation).toBe('2');
    const patient = handler({ executor: agent(gates), longPollMaxMs: 600_000 });
    const other = taskOf(await patient.sendMessage(userSend('gate b', { configuration: { returnImmediately: true } }), ctx(V11)));
    await waitFor(() => gates.reached('b'));
    const leaving = new AbortController();
    const polled = patient.getTask({ tenant: '', id: other.id, currentGeneration: '2' }, ctx(V11, leaving.signal));
    leaving.abort();
    expect((await polled).generation).toBe('2');
    gates.open('a');
    gates.open('b');
    await Promise.all([h.shutdown(0), patient.shutdown(0)]);
  });

  it('wakes for an idle interrupted task when a follow-up moves it (no run was there to log)', async () => {
    const log = new CountingLog();
    const h = handler({ eventLog: log });
    const asked = taskOf(await h.sendMessage(userSend('ask'), ctx(V11)));
    expect(asked.generation).toBe('2');
    await waitFor(() => h.activeRuns === 0);
    const polled = h.getTask({ tenant: '', id: asked.id, currentGeneration: '2' }, ctx(V11));
    await waitFor(() => log.waits > 0);
    await h.sendMessage(userSend('blue', { taskId: asked.id, configuration: { returnImmediately: true } }), ctx(V10));
    expect(Number((await polled).generation)).toBeGreaterThan(2);
    await h.shutdown(0);
  });

  it('refuses a generation that is not a non-negative integer', async () => {
    const h = handler();
    const task = taskOf(await h.sendMessage(userSend('hi'), ctx(V11)));
    await expect(h.getTask({ tenant: '', id: task.id, currentGeneration: '-1' }, ctx(V11))).rejects.toMatchObject({ code: A2AErrorCode.InvalidParams });
    await expect(h.getTask({ tenant: '', id: task.id, currentGeneration: 'x' }, ctx(V11))).rejects.toMatchObject({ code: A2AErrorCode.InvalidParams });
  });
});

describe('conditional follow-ups (ifGenerationMatch)', () => {
  const followUp = (taskId: string, generation: string | undefined) => userSend('blue', { taskId, configuration: { ifGenerationMatch: generation } });

  it('accepts a follow-up naming the current generation; refuses a stale one with TaskGenerationMismatch naming both', async () => {
    const h = handler();
    const asked = taskOf(await h.sendMessage(userSend('ask'), ctx(V11)));
    await waitFor(() => h.activeRuns === 0);
    let refused: unknown;
    await h.sendMessage(followUp(asked.id, '1'), ctx(V11)).catch((error: unknown) => (refused = error));
    expect(refused).toBeInstanceOf(A2AError);
    expect(refused).toMatchObject({
      code: A2AErrorCode.TaskGenerationMismatch,
      metadata: { taskId: asked.id, expectedGeneration: '1', currentGeneration: '2' },
    });
    const done = taskOf(await h.sendMessage(followUp(asked.id, '2'), ctx(V11)));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(Number(done.generation)).toBeGreaterThan(2);
  });

  it('is ignored for a message that creates a task, and on 1.0 calls', async () => {
    const h = handler();
    expect(taskOf(await h.sendMessage(userSend('hi', { configuration: { ifGenerationMatch: '7' } }), ctx(V11))).status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    const asked = taskOf(await h.sendMessage(userSend('ask'), ctx(V10)));
    await waitFor(() => h.activeRuns === 0);
    expect(taskOf(await h.sendMessage(followUp(asked.id, '1'), ctx(V10))).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  const again = (taskId: string, generation: string) => userSend('again', { taskId, configuration: { ifGenerationMatch: generation } });
  /** The follow-up answers a task holds (each asked again, so each left its message in the history). */
  const answersIn = (task: Task) => task.history.filter((m) => m.role === 1 && m.parts[0]?.content?.value === 'again').length;

  it('of two concurrent follow-ups naming the same generation, one instance accepts exactly one', async () => {
    const h = handler();
    for (let i = 0; i < 20; i++) {
      const asked = taskOf(await h.sendMessage(userSend('ask'), ctx(V11)));
      await waitFor(() => h.activeRuns === 0);
      const outcomes = await Promise.allSettled([h.sendMessage(again(asked.id, '2'), ctx(V11)), h.sendMessage(again(asked.id, '2'), ctx(V11))]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const refusal = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect(refusal.reason).toMatchObject({ code: A2AErrorCode.TaskGenerationMismatch });
      await waitFor(() => h.activeRuns === 0);
      expect(answersIn(await h.getTask({ tenant: '', id: asked.id }, ctx(V11)))).toBe(1);
    }
  });

  it('between two instances on one store and log (durable mode), exactly one of each pair is accepted', async () => {
    const store = new InMemoryTaskStore();
    const log = new InMemoryEventLog();
    const a = handler({ taskStore: store, eventLog: log, cluster: { instanceId: 'a' } });
    const b = handler({ taskStore: store, eventLog: log, cluster: { instanceId: 'b' } });
    for (let i = 0; i < 30; i++) {
      const asked = taskOf(await a.sendMessage(userSend('ask'), ctx(V11)));
      await waitFor(async () => a.activeRuns === 0 && (await store.get('', asked.id))?.version === 2);
      const outcomes = await Promise.allSettled([a.sendMessage(again(asked.id, '2'), ctx(V11)), b.sendMessage(again(asked.id, '2'), ctx(V11))]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const refusal = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect(refusal.reason).toMatchObject({ code: A2AErrorCode.TaskGenerationMismatch });
      await waitFor(() => a.activeRuns === 0 && b.activeRuns === 0);
      const stored = await store.get('', asked.id);
      expect(stored && answersIn(stored.task)).toBe(1);
    }
    await Promise.all([a.shutdown(0), b.shutdown(0)]);
  });
});
