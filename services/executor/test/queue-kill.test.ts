/**
 * The run queue across processes (PostgreSQL + Redis): a frontend queues every send, a worker
 * on another process runs it. kill -9 of the worker running a task of the retryable agent
 * resumes the task on the other worker: it completes, and the client streaming it from the
 * frontend sees every event numbered without a gap. The same kill under the non-retryable
 * agent ends the task FAILED with the reason. A graceful stop (SIGTERM) hands the retryable
 * agent's task back to the queue, where another worker resumes it; the non-retryable one's is
 * failed with the shutdown reason. `scripts/queue-kill-loop.ts` runs the kill many times.
 */
import { ABANDONED_TASK_MESSAGE, RESUMED_TASK_MESSAGE } from '@a2a-polyglot/core';
import { json, partsText } from './helpers.js';
import { cleanUp, describeWithPostgresAndRedis, POSTGRES_URL, REDIS_URL, uniqueName } from './durable-services.js';
import { startQueueCluster, type QueueCluster } from './queue-cluster.js';

jest.setTimeout(90_000);

/** The status message of a task a shutdown fails (`RequestHandler.shutdown`'s default reason). */
const SHUTDOWN_REASON = 'The server shut down before the task finished';

describeWithPostgresAndRedis('run queue: kill -9 and SIGTERM of a worker (PostgreSQL + Redis)', () => {
  const schema = uniqueName('a2a_queue');
  const prefix = schema;
  let cluster: QueueCluster;

  beforeAll(async () => {
    cluster = await startQueueCluster({ postgresUrl: POSTGRES_URL!, redisUrl: REDIS_URL!, schema, prefix });
  });

  afterAll(async () => {
    await cluster?.close();
    await cleanUp(schema, prefix);
  });

  it('a blocking send on the frontend is run by a worker and answers the completed task', async () => {
    const res = await fetch(`${cluster.frontendUrl}/agents/retry/a2a/message:send`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'tick' }] } }),
    });
    const body = await json(res);
    expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(partsText(body.task.artifacts[0].parts)).toMatch(/^tick 0 tick 1 .*tick 39 $/);
  });

  // kill -9: the entry's lease runs out; SIGTERM: the stopping worker hands the task back at once.
  it.each([
    ['killed (kill -9)', 'kill'],
    ['stopped gracefully (SIGTERM), which hands it back,', 'term'],
  ] as const)('retryable: the task whose worker was %s is resumed on another worker and completes; the stream has no gap', async (_how, stop) => {
    const outcome = await cluster.trial('retry', stop);
    if (stop === 'term') expect(outcome.exitCode).toBe(0);
    expect(outcome.state).toBe('TASK_STATE_COMPLETED');
    expect(outcome.ranOn).toHaveLength(2);
    expect(outcome.ranOn[1]).not.toBe(outcome.ranOn[0]);
    expect(outcome.gapFree).toBe(true);
    const task = await json(
      await fetch(`${cluster.frontendUrl}/agents/retry/a2a/tasks/${outcome.taskId}?historyLength=0`, { headers: { 'A2A-Version': '1.0' } }),
    );
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    // The resumed run said so, then ran the agent again from the message: one whole artifact.
    expect(JSON.stringify(task)).not.toContain('TASK_STATE_FAILED');
    expect(partsText(task.artifacts[0].parts)).toMatch(/^tick 0 tick 1 .*tick 39 $/);
    expect(RESUMED_TASK_MESSAGE).toMatch(/resumed/);
  });

  it('not retryable, graceful stop (SIGTERM): the task ends FAILED with the shutdown reason, as without a queue', async () => {
    const outcome = await cluster.trial('once', 'term');
    expect(outcome.exitCode).toBe(0);
    expect(outcome.state).toBe('TASK_STATE_FAILED');
    expect(outcome.reason).toBe(SHUTDOWN_REASON);
    expect(outcome.ranOn).toHaveLength(1);
    expect(outcome.gapFree).toBe(true);
  });

  it('not retryable: the task killed with its worker ends FAILED with the reason', async () => {
    const outcome = await cluster.trial('once');
    expect(outcome.state).toBe('TASK_STATE_FAILED');
    expect(outcome.reason).toBe(ABANDONED_TASK_MESSAGE);
    expect(outcome.ranOn).toHaveLength(1);
    expect(outcome.gapFree).toBe(true);
  });
});
