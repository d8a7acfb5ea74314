/**
 * The executor on a DynamoDB task store (dynalite on 127.0.0.1): the table is created at
 * startup, tasks survive a restart, ListTasks and readiness work, and two instances share
 * tasks through it with Redis carrying events and cancels. AWS credentials and region
 * are dummies from the environment and the configuration, so the SDK looks nowhere else.
 */
import { silentLogger } from '@a2a-polyglot/core';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { useDynaliteWithEnvCredentials } from '../../../packages/stores/test/dynalite.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { REDIS_URL } from './durable-services.js';
import { json, postJson, readSse, userMessage, V1 } from './helpers.js';

const local = useDynaliteWithEnvCredentials();

const started: RunningExecutor[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.close()));
});

async function start(table: string, extra: Parameters<typeof startExecutor>[0] = {}): Promise<RunningExecutor> {
  const running = await startExecutor(
    {
      host: '127.0.0.1',
      port: 0,
      grpcPort: false,
      demo: { chunkDelayMs: 0 },
      instanceId: 'dyn-1',
      store: { kind: 'dynamodb', table, endpoint: local().endpoint, region: 'local' },
      ...extra,
    },
    { logger: silentLogger },
  );
  started.push(running);
  return running;
}

describe('executor on DynamoDB', () => {
  it('creates the table, keeps tasks across a restart, lists them and reports ready', async () => {
    const table = `a2a-exec-${process.pid}-${Date.now().toString(36)}`;
    const first = await start(table);
    const sent = await json(await postJson(`${first.url}/a2a/message:send`, { message: userMessage('hello dynamo') }));
    expect(sent.task.status.state).toBe('TASK_STATE_COMPLETED');
    const id: string = sent.task.id;
    await first.close();

    const second = await start(table);
    const got = await json(await fetch(`${second.url}/a2a/tasks/${id}`, { headers: V1 }));
    expect(got).toMatchObject({ id, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(got.artifacts[0].parts.map((p: { text: string }) => p.text).join('')).toBe('Echo: hello dynamo');
    const listed = await json(await fetch(`${second.url}/a2a/tasks`, { headers: V1 }));
    expect(listed.tasks.map((t: { id: string }) => t.id)).toEqual([id]);
    expect((await fetch(`${second.url}/readyz`)).status).toBe(200);

    // The finished task carries the TTL attribute (default retention 30 days).
    const { Item } = await local().client.send(new GetItemCommand({ TableName: table, Key: { pk: { S: JSON.stringify(['', id]) }, sk: { S: 'task' } } }));
    expect(Number(Item?.expires_at?.N) * 1000).toBeGreaterThan(Date.now() + 29 * 24 * 3600_000);
  });

  it('refuses to start with one line naming the table and the cause when DynamoDB cannot be reached', async () => {
    const failed = startExecutor(
      { host: '127.0.0.1', port: 0, grpcPort: false, store: { kind: 'dynamodb', table: 'a2a-tasks', endpoint: 'http://127.0.0.1:1', region: 'local' } },
      { logger: silentLogger },
    );
    await expect(failed).rejects.toThrow(/^Cannot prepare the DynamoDB task store table a2a-tasks at http:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/);
  });

  const withRedis = REDIS_URL ? it : it.skip;
  if (!REDIS_URL) console.warn('\n!!! A2A_TEST_REDIS_URL is not set: two executors on DynamoDB + Redis are SKIPPED\n');
  withRedis('two instances on DynamoDB + Redis: a task running on A is followed and canceled on B', async () => {
    const table = `a2a-two-${process.pid}-${Date.now().toString(36)}`;
    const eventLog = { url: REDIS_URL!, prefix: `a2a-dyn-${process.pid}-${Date.now().toString(36)}`, retentionMs: 1000 };
    const a = await start(table, { instanceId: 'dyn-a', eventLog });
    const b = await start(table, { instanceId: 'dyn-b', eventLog });
    const started = await json(await postJson(`${a.url}/a2a/message:send`, { message: userMessage('slow'), configuration: { returnImmediately: true } }));
    const id: string = started.task.id;
    const subscribe = (url: string) => fetch(`${url}/a2a/tasks/${id}:subscribe`, { method: 'POST', headers: { ...V1, accept: 'text/event-stream' } });
    // B follows A's run: the snapshot, then ticks that A produces.
    const onB = await readSse(await subscribe(b.url), { until: (_e, all) => all.filter((e) => e.data.artifactUpdate).length >= 2, timeoutMs: 15_000 });
    expect(onB[0]!.data.task.id).toBe(id);
    const followA = subscribe(a.url).then((res) => readSse(res, { timeoutMs: 15_000 }));
    const canceled = await json(await fetch(`${b.url}/a2a/tasks/${id}:cancel`, { method: 'POST', headers: V1 }));
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    // A's stream ends with the cancel made on B, and both instances read the same task.
    const events = await followA;
    expect(events[events.length - 1]!.data.statusUpdate.status.state).toBe('TASK_STATE_CANCELED');
    const [onTaskA, onTaskB] = await Promise.all([a, b].map(async (r) => json(await fetch(`${r.url}/a2a/tasks/${id}`, { headers: V1 }))));
    expect(onTaskA).toEqual(onTaskB);
  });
});
