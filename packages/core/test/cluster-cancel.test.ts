import { TaskState } from '@a2a-polyglot/model';
import { testAgentCard, userSend, waitFor } from '@a2a-polyglot/testing';
import {
  callContext,
  InMemoryEventLog,
  InMemoryTaskStore,
  LocalTaskSignals,
  RequestHandler,
  silentLogger,
  wrapTaskStore,
  type AgentExecutor,
  type RequestHandlerOptions,
  type TaskStore,
} from '../src/index.js';

const ctx = () => callContext('IN-PROCESS', { 'a2a-version': '1.0' });

/** A promise with its resolver outside, for gating store calls on events (never on clocks). */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** `store`, telling `nextSave()` waiters when a save of it completed. */
function notifyingSaves(store: TaskStore): TaskStore & { nextSave: () => Promise<void> } {
  let saved = gate();
  const wrapped = wrapTaskStore(store, async (operation, call) => {
    const result = await call();
    if (operation === 'save') {
      const done = saved;
      saved = gate();
      done.open();
    }
    return result;
  });
  return Object.assign(wrapped, { nextSave: () => saved.promise });
}

/**
 * An agent that streams artifact chunks as fast as it can (one per macrotask) until aborted;
 * `stopped` resolves when its execution returns, `hooked` counts its cancel hook calls.
 */
function streamingAgent(): AgentExecutor & { started: ReturnType<typeof gate>; stopped: ReturnType<typeof gate>; hooked: number } {
  const agent = {
    started: gate(),
    stopped: gate(),
    hooked: 0,
    async execute(c: Parameters<AgentExecutor['execute']>[0]) {
      c.working();
      agent.started.open();
      try {
        for (let i = 0; !c.signal.aborted; i++) {
          c.artifact({ artifactId: 'ticks', text: `tick ${i}`, append: i > 0 });
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      } finally {
        agent.stopped.open();
      }
    },
    cancel() {
      agent.hooked++;
    },
  };
  return agent;
}

/** One instance of the cluster: the test card, no logs, the rest from `options`. */
function instance(options: Omit<RequestHandlerOptions, 'card' | 'logger'>): RequestHandler {
  return new RequestHandler({ card: testAgentCard(), logger: silentLogger, ...options });
}

describe('durable mode: CancelTask served by an instance that does not run the task', () => {
  it('cancels a fast-writing task running on another instance, even when every store write of the canceler is stale', async () => {
    const shared = new InMemoryTaskStore();
    const log = new InMemoryEventLog();
    const signals = new LocalTaskSignals();

    // A's saves tell B's store that the task moved on; B's saves wait for one (or for A's
    // agent to have stopped), so every write B makes carries a stale version: B can never win
    // the race against A by writing, whatever the machine's speed.
    const storeA = notifyingSaves(shared);
    const agentA = streamingAgent();
    const storeB: TaskStore = wrapTaskStore(shared, async (operation, call) => {
      if (operation === 'save') await Promise.race([storeA.nextSave(), agentA.stopped.promise]);
      return call();
    });

    const a = instance({ executor: agentA, taskStore: storeA, eventLog: log, cluster: { instanceId: 'a', signals } });
    const agentB = streamingAgent();
    const b = instance({ executor: agentB, taskStore: storeB, eventLog: log, cluster: { instanceId: 'b', signals } });
    try {
      const sent = await a.sendMessage(userSend('stream', { configuration: { returnImmediately: true } }), ctx());
      if (sent.payload?.$case !== 'task') throw new Error('expected a task');
      const id = sent.payload.value.id;
      await agentA.started.promise;

      const canceled = await b.cancelTask({ tenant: '', id, metadata: undefined }, ctx());
      expect(canceled.id).toBe(id);
      expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);

      // A's own run canceled it: its agent stopped, and its cancel hook ran there.
      await agentA.stopped.promise;
      expect(agentA.hooked).toBe(1);
      const stored = await shared.get('', id);
      expect(stored?.task.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      const onA = await a.getTask({ tenant: '', id, historyLength: undefined }, ctx());
      expect(onA.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    } finally {
      await Promise.all([a.shutdown(0), b.shutdown(0)]);
    }
  });

  it('writes the cancel itself when the executing instance does not answer the request', async () => {
    const shared = new InMemoryTaskStore();
    const log = new InMemoryEventLog();
    const signals = new LocalTaskSignals();

    // A's agent writes once, at the moment B's first save starts, so that save is stale; then
    // it only waits. A does not listen to signals, so B's cancel request goes unanswered.
    const bSaving = gate();
    const stopped = gate();
    const agentA: AgentExecutor = {
      async execute(c) {
        c.working();
        await bSaving.promise;
        c.artifact({ text: 'late tick' });
        await new Promise<void>((resolve) => c.signal.addEventListener('abort', () => resolve(), { once: true }));
        stopped.open();
      },
    };
    const storeA = notifyingSaves(shared);
    let bSaves = 0;
    const storeB = wrapTaskStore(shared, async (operation, call) => {
      if (operation === 'save' && ++bSaves === 1) {
        const aTicked = storeA.nextSave();
        bSaving.open();
        await aTicked;
      }
      return call();
    });

    // A short lease: A learns from its renewal that its task was taken over.
    const a = instance({ executor: agentA, taskStore: storeA, eventLog: log, cluster: { instanceId: 'a', leaseMs: 300 } });
    const b = instance({ executor: streamingAgent(), taskStore: storeB, eventLog: log, cancelHookTimeoutMs: 1, cluster: { instanceId: 'b', signals } });
    try {
      const sent = await a.sendMessage(userSend('wait', { configuration: { returnImmediately: true } }), ctx());
      if (sent.payload?.$case !== 'task') throw new Error('expected a task');
      const id = sent.payload.value.id;
      // Make sure A saved the working state before B loads, so B's first save is raced by the tick only.
      await waitFor(async () => (await shared.get('', id))?.task.status?.state === TaskState.TASK_STATE_WORKING, { what: 'A to store WORKING' });
      const canceled = await b.cancelTask({ tenant: '', id, metadata: undefined }, ctx());
      expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      expect(bSaves).toBe(2);
      await stopped.promise;
    } finally {
      await Promise.all([a.shutdown(0), b.shutdown(0)]);
    }
  });
});
