/**
 * A worker's graceful shutdown with queued runs still executing (two RequestHandlers on one
 * in-memory store, log and fake run queue): a retryable agent's run is handed back — the task
 * stays unsettled, its lease and queue entry are let go — and the next worker resumes it to
 * completion; a non-retryable agent's run is failed with the shutdown reason, as without a
 * queue, and its entry acked.
 */
import { TaskState, type StreamResponse } from '@a2a-polyglot/model';
import { testAgentCard, userSend, waitFor } from '@a2a-polyglot/testing';
import {
  callContext,
  InMemoryEventLog,
  InMemoryTaskStore,
  RequestHandler,
  RESUMED_TASK_MESSAGE,
  silentLogger,
  taskLogKey,
  type AgentExecutor,
} from '../src/index.js';
import { FakeRunQueue } from './fake-run-queue.js';

const ctx = () => callContext('IN-PROCESS', { 'a2a-version': '1.0' });
const SHUTDOWN_REASON = 'The server shut down before the task finished';

/** Works until aborted; `started` counts its runs, `aborted` those that saw the abort. */
function hangingAgent(): AgentExecutor & { started: number; aborted: number } {
  const agent = {
    started: 0,
    aborted: 0,
    async execute(c: Parameters<AgentExecutor['execute']>[0]) {
      agent.started++;
      c.working('on the first worker');
      c.artifact({ artifactId: 'partial', text: 'half done' });
      await new Promise<void>((resolve) => c.signal.addEventListener('abort', () => resolve(), { once: true }));
      agent.aborted++;
      // Whatever it reports once aborted must not reach the task.
      c.complete('late completion');
    },
  };
  return agent;
}

const completingAgent: AgentExecutor = {
  async execute(c) {
    c.complete('done on the second worker');
  },
};

/** The in-memory log, keeping every event appended (it drops a task's log once the task ends). */
class RecordingLog extends InMemoryEventLog {
  readonly appended: Array<{ key: string; event: StreamResponse }> = [];
  override append(key: string, event: StreamResponse, at?: number): number {
    this.appended.push({ key, event });
    return super.append(key, event, at);
  }
}

describe('graceful shutdown of a worker with queued runs', () => {
  const store = new InMemoryTaskStore();
  const log = new RecordingLog();
  const worker = (id: string, executor: AgentExecutor, queue: FakeRunQueue, retryable: boolean) =>
    new RequestHandler({
      card: testAgentCard(),
      logger: silentLogger,
      executor,
      taskStore: store,
      eventLog: log,
      cluster: { instanceId: id },
      queue: { queue, agent: 'x', retryable, pollMs: 10 },
    });

  /** Sends through `first`, waits until its agent runs, then shuts `first` down (no grace). */
  async function shutDownMidRun(queue: FakeRunQueue, retryable: boolean) {
    const agent = hangingAgent();
    const first = worker(`first-${retryable}`, agent, queue, retryable);
    const sent = await first.sendMessage(userSend('go', { configuration: { returnImmediately: true } }), ctx());
    if (sent.payload?.$case !== 'task') throw new Error('expected a task');
    const id = sent.payload.value.id;
    await waitFor(async () => agent.started === 1 && (await store.get('', id))?.task.artifacts.length === 1, { what: 'the agent running' });
    await first.shutdown(0);
    expect(agent.aborted).toBe(1);
    return id;
  }

  it('retryable: handed back unsettled, then resumed and completed by the next worker', async () => {
    const queue = new FakeRunQueue();
    const id = await shutDownMidRun(queue, true);
    const left = await store.get('', id);
    expect(left?.task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(left?.task.artifacts[0]?.artifactId).toBe('partial');
    expect(queue.releases).toHaveLength(1);
    expect(queue.acks).toEqual([]);
    expect(queue.entries.map((e) => [e.claimedBy, e.attempts])).toEqual([[undefined, 1]]);

    const second = worker('second', completingAgent, queue, true);
    try {
      await waitFor(async () => (await store.get('', id))?.task.status?.state === TaskState.TASK_STATE_COMPLETED, { what: 'the resumed run' });
      const done = await store.get('', id);
      expect(done?.task.status?.message?.parts[0]?.content).toEqual({ $case: 'text', value: 'done on the second worker' });
      const events = log.appended.filter((a) => a.key === taskLogKey('', id)).map((a) => JSON.stringify(a.event));
      expect(events.some((e) => e.includes(RESUMED_TASK_MESSAGE))).toBe(true);
      expect(events.some((e) => e.includes('FAILED') || e.includes('late completion') || e.includes(SHUTDOWN_REASON))).toBe(false);
      await waitFor(() => queue.entries.length === 0, { what: 'the ack' });
    } finally {
      await second.shutdown(0);
    }
  });

  it('not retryable: failed with the shutdown reason, and its entry acked', async () => {
    const queue = new FakeRunQueue();
    const id = await shutDownMidRun(queue, false);
    const failed = await store.get('', id);
    expect(failed?.task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(failed?.task.status?.message?.parts[0]?.content).toEqual({ $case: 'text', value: SHUTDOWN_REASON });
    expect(queue.releases).toEqual([]);
    expect(queue.entries).toEqual([]);
  });
});
