import { Role, TaskState, type StreamResponse } from '@a2a-polyglot/model';
import {
  A2AError,
  A2AErrorCode,
  callContext,
  InMemoryEventLog,
  InMemoryTaskStore,
  RequestHandler,
  type AgentExecutor,
  type LoggedEvent,
} from '../src/index.js';
import { waitFor, userSend, testAgentCard } from '@a2a-polyglot/testing';

const ctx = () => callContext('IN-PROCESS', { 'a2a-version': '1.0' });

async function collect(stream: AsyncIterable<LoggedEvent>): Promise<LoggedEvent[]> {
  const out: LoggedEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

const kinds = (events: LoggedEvent[]) => events.map((e) => e.event.payload?.$case);

describe('RequestHandler', () => {
  const chunky: AgentExecutor = {
    async execute(ctx) {
      ctx.working();
      const id = ctx.artifact({ name: 'answer', text: 'a' });
      ctx.artifact({ artifactId: id, text: 'b', append: true, lastChunk: true });
      ctx.complete();
    },
  };

  it('answers a blocking send with the completed task and its artifacts', async () => {
    const h = new RequestHandler({ card: testAgentCard(), executor: chunky });
    const res = await h.sendMessage(userSend('hi'), ctx());
    expect(res.payload?.$case).toBe('task');
    const task = (res.payload as { value: any }).value;
    expect(task.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts).toHaveLength(1);
    expect(task.artifacts[0].parts.map((p: any) => p.content.value)).toEqual(['a', 'b']);
    expect(task.history[0].parts[0].content.value).toBe('hi');
  });

  it('keeps the finished task as it was answered: neither the answer nor a late report changes it', async () => {
    let late: (() => void) | undefined;
    const h = new RequestHandler({
      card: testAgentCard(),
      executor: {
        async execute(ctx) {
          ctx.artifact({ name: 'answer', text: 'a' });
          ctx.complete();
          late = () => ctx.artifact({ name: 'late', text: 'z' });
        },
      },
    });
    const res = await h.sendMessage(userSend('hi'), ctx());
    const answered = (res.payload as { value: any }).value;
    const before = structuredClone(answered);
    answered.artifacts.push({ artifactId: 'x', parts: [] });
    answered.status.state = TaskState.TASK_STATE_FAILED;
    try {
      late?.();
    } catch {
      // A report after the end may be refused outright; either way it must not reach the task.
    }
    expect(await h.getTask({ tenant: '', id: before.id }, ctx())).toEqual(before);
  });

  it('streams the task first, then every event in order with increasing seq', async () => {
    const h = new RequestHandler({ card: testAgentCard(), executor: chunky });
    const events = await collect(await h.sendStreamingMessage(userSend('hi'), ctx()));
    expect(kinds(events)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('hands every ready event over in one batch, and ends after the terminal one', async () => {
    const h = new RequestHandler({ card: testAgentCard(), executor: chunky });
    const stream = await h.sendStreamingMessage(userSend('hi'), ctx());
    // The agent reported everything before the stream was read: one batch holds it all.
    const batch = await stream.nextBatch();
    expect(batch?.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(await stream.nextBatch()).toBeUndefined();
  });

  it('keeps the event log of a streamed task for late resumes, and none for a task no stream saw', async () => {
    const eventLog = new InMemoryEventLog();
    const h = new RequestHandler({ card: testAgentCard(), executor: chunky, eventLog });
    await h.sendMessage(userSend('unary'), ctx());
    expect(eventLog.size).toBe(0);
    const events = await collect(await h.sendStreamingMessage(userSend('streamed'), ctx()));
    expect(eventLog.size).toBe(1);
    // A client cut after seq 2 resumes from the finished task's log.
    const taskId = (events[0]!.event.payload as { value: { id: string } }).value.id;
    const resumed = await collect(await h.subscribeToTask({ tenant: '', id: taskId }, ctx(), 2));
    expect(resumed.map((e) => e.seq)).toEqual([3, 4, 5]);
  });

  it('has the store hold the final state by the time CancelTask answers (an interrupted task, no run left)', async () => {
    const taskStore = new InMemoryTaskStore();
    const h = new RequestHandler({
      card: testAgentCard(),
      executor: {
        async execute(c) {
          c.requireInput('which city?');
        },
      },
      taskStore,
    });
    const res = await h.sendMessage(userSend('weather'), ctx());
    const id = (res.payload as { value: { id: string } }).value.id;
    expect((await taskStore.get('', id))?.task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    await h.cancelTask({ tenant: '', id, metadata: undefined }, ctx());
    expect((await taskStore.get('', id))?.task.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('answers with a message when the agent replies', async () => {
    const h = new RequestHandler({
      card: testAgentCard(),
      executor: {
        async execute(c) {
          c.reply(`echo ${c.text}`);
        },
      },
    });
    const res = await h.sendMessage(userSend('x'), ctx());
    expect(res.payload?.$case).toBe('message');
    const events = await collect(await h.sendStreamingMessage(userSend('y'), ctx()));
    expect(kinds(events)).toEqual(['message']);
  });

  it('handles input-required then a follow-up', async () => {
    const h = new RequestHandler({
      card: testAgentCard(),
      executor: {
        async execute(c) {
          if (!c.task) return c.requireInput('which city?');
          c.complete(`weather in ${c.text}`);
        },
      },
    });
    const first = await h.sendMessage(userSend('weather'), ctx());
    const task = (first.payload as { value: any }).value;
    expect(task.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const events = await collect(await h.sendStreamingMessage(userSend('Paris', { taskId: task.id }), ctx()));
    expect(kinds(events)).toEqual(['task', 'statusUpdate']);
    const last = events[1]!.event as StreamResponse;
    expect((last.payload as any).value.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const got = await h.getTask({ tenant: '', id: task.id, historyLength: undefined }, ctx());
    expect(got.history.map((m) => m.role)).toEqual([Role.ROLE_USER, Role.ROLE_AGENT, Role.ROLE_USER, Role.ROLE_AGENT]);
    await expect(h.sendMessage(userSend('again', { taskId: task.id }), ctx())).rejects.toMatchObject({ code: A2AErrorCode.UnsupportedOperation });
  });

  it('cancels a running task and subscribe resumes without gaps', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const h = new RequestHandler({
      card: testAgentCard(),
      executor: {
        async execute(c) {
          c.working();
          c.artifact({ text: 'one' });
          await Promise.race([gate, new Promise((r) => c.signal.addEventListener('abort', r))]);
          c.artifact({ text: 'late' });
        },
      },
    });
    const res = await h.sendMessage(
      userSend('go', { configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true } }),
      ctx(),
    );
    const id = (res.payload as any).value.id;
    const sub = await h.subscribeToTask({ tenant: '', id }, ctx());
    const it = sub[Symbol.asyncIterator]();
    const snap = (await it.next()).value as LoggedEvent;
    expect(snap.event.payload?.$case).toBe('task');
    const canceled = await h.cancelTask({ tenant: '', id, metadata: undefined }, ctx());
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const rest: LoggedEvent[] = [];
    for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value);
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((e, i) => e.seq === snap.seq + i + 1)).toBe(true);
    release();
    await expect(h.cancelTask({ tenant: '', id, metadata: undefined }, ctx())).rejects.toMatchObject({ code: A2AErrorCode.TaskNotCancelable });
    // resume after the snapshot's seq replays what the subscriber saw, even though the task is terminal
    const replay = await collect(await h.subscribeToTask({ tenant: '', id }, ctx(), snap.seq));
    expect(replay.map((e) => e.seq)).toEqual(rest.map((e) => e.seq));
    await expect(h.subscribeToTask({ tenant: '', id }, ctx())).rejects.toMatchObject({ code: A2AErrorCode.UnsupportedOperation });
  });

  it('logs no event of a plain send nobody follows, and logs from the snapshot on once someone subscribes', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const log = new InMemoryEventLog();
    const h = new RequestHandler({
      card: testAgentCard(),
      eventLog: log,
      executor: {
        async execute(c) {
          c.working();
          c.artifact({ text: 'one' });
          await gate;
          c.artifact({ text: 'two' });
          c.complete();
        },
      },
    });
    const res = await h.sendMessage(
      userSend('go', { configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true } }),
      ctx(),
    );
    const id = (res.payload as any).value.id;
    // Running, three events applied (task, working, artifact), nothing logged.
    expect(log.size).toBe(0);
    const sub = await h.subscribeToTask({ tenant: '', id }, ctx());
    release();
    const events = await collect(sub);
    expect(kinds(events)).toEqual(['task', 'artifactUpdate', 'statusUpdate']);
    // The seq numbers go on from the snapshot's: the run counted what it did not log.
    expect(events.map((e) => e.seq)).toEqual([3, 4, 5]);
    const replay = await collect(await h.subscribeToTask({ tenant: '', id }, ctx(), 3));
    expect(replay.map((e) => e.seq)).toEqual([4, 5]);
  });

  it('serves a subscriber of an interrupted task the events of its plain follow-up', async () => {
    const h = new RequestHandler({
      card: testAgentCard(),
      executor: {
        async execute(c) {
          if (!c.task) return c.requireInput('which city?');
          c.complete(`weather in ${c.text}`);
        },
      },
    });
    const first = await h.sendMessage(userSend('weather'), ctx());
    const id = (first.payload as { value: any }).value.id;
    // The run has ended: the subscriber reads the task from the store, with no run to follow.
    await waitFor(() => h.activeRuns === 0);
    const followed = collect(await h.subscribeToTask({ tenant: '', id }, ctx()));
    await h.sendMessage(userSend('Paris', { taskId: id }), ctx());
    const events = await followed;
    expect(kinds(events)).toEqual(['task', 'statusUpdate']);
    expect(events[1]!.seq).toBe(events[0]!.seq + 1);
    expect((events[1]!.event.payload as any).value.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('rejects unknown tasks, missing versions and bad params', async () => {
    const h = new RequestHandler({ card: testAgentCard(), executor: chunky });
    await expect(h.getTask({ tenant: '', id: 'nope', historyLength: undefined }, ctx())).rejects.toMatchObject({ code: A2AErrorCode.TaskNotFound });
    await expect(h.getTask({ tenant: '', id: 'x', historyLength: undefined }, callContext('IN-PROCESS', {}))).rejects.toMatchObject({
      code: A2AErrorCode.VersionNotSupported,
    });
    await expect(h.sendMessage(userSend('hi', { taskId: 'nope' }), ctx())).rejects.toMatchObject({ code: A2AErrorCode.TaskNotFound });
    const bad = userSend('x');
    bad.message!.parts = [];
    await expect(h.sendMessage(bad, ctx())).rejects.toBeInstanceOf(A2AError);
  });
});
