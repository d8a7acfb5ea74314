/**
 * Mounted agents on durable stores: every agent of `agents` keeps its tasks in the one
 * configured store (SQLite file, PostgreSQL schema + Redis prefix, DynamoDB table), each on its own partition.
 * A task created on agent a is readable on a and across a restart, and unknown to agent b
 * (GetTask → -32001, ListTasks empty, no subscribe, no cancel); the default agent keeps the
 * unprefixed partition, so what a single-agent executor wrote on the same store stays its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@a2a-polyglot/core';
import { useDynaliteWithEnvCredentials } from '../../../packages/stores/test/dynalite.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import type { ExecutorConfigInput } from '../src/config.js';
import { json, postJson, rpc, userMessage, waitFor } from './helpers.js';
import { cleanUp, describeWithPostgresAndRedis, POSTGRES_URL, REDIS_URL, uniqueName } from './durable-services.js';

jest.setTimeout(60_000);

const TASK_NOT_FOUND = -32001;
const AGENTS = [
  { id: 'a', handler: 'demo' },
  { id: 'b', handler: 'demo' },
];

/** JSON-RPC at agent `id` (or the root when undefined) of `running`. */
async function call(running: RunningExecutor, id: string | undefined, method: string, params: unknown): Promise<any> {
  const path = id === undefined ? '/a2a/rpc' : `/agents/${id}/a2a/rpc`;
  return json(await postJson(`${running.url}${path}`, rpc(method, params)));
}

/** The scenario every store runs: `store` is the storage part of the configuration. */
function isolationSuite(storage: () => ExecutorConfigInput): void {
  const running: RunningExecutor[] = [];
  const start = async (config: ExecutorConfigInput): Promise<RunningExecutor> => {
    const r = await startExecutor({ port: 0, grpcPort: 0, host: '127.0.0.1', instanceId: 'gw', ...storage(), ...config }, { logger: silentLogger });
    running.push(r);
    return r;
  };
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.close()));
  });

  it("keeps each agent's tasks in its own partition of the one store, across a restart", async () => {
    let gw = await start({ agents: AGENTS });
    const sent = await call(gw, 'a', 'SendMessage', { message: userMessage('on a') });
    expect(sent.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const task = sent.result.task;
    expect((await call(gw, 'a', 'GetTask', { id: task.id })).result).toEqual(task);
    expect((await call(gw, 'b', 'GetTask', { id: task.id })).error.code).toBe(TASK_NOT_FOUND);
    expect((await call(gw, 'b', 'ListTasks', {})).result.tasks).toEqual([]);
    expect((await call(gw, 'b', 'CancelTask', { id: task.id })).error.code).toBe(TASK_NOT_FOUND);
    expect((await call(gw, 'a', 'ListTasks', {})).result.tasks.map((t: { id: string }) => t.id)).toEqual([task.id]);
    // A tenant of the default agent (a, also at the root) never names another agent's partition.
    const onB = (await call(gw, 'b', 'SendMessage', { message: userMessage('on b') })).result.task;
    expect((await call(gw, undefined, 'GetTask', { id: onB.id, tenant: '@b/' })).error.code).toBe(TASK_NOT_FOUND);
    expect((await call(gw, undefined, 'ListTasks', { tenant: '@b/' })).result.tasks).toEqual([]);
    expect((await call(gw, 'a', 'GetTask', { id: onB.id })).error.code).toBe(TASK_NOT_FOUND);
    await gw.close();

    gw = await start({ agents: AGENTS });
    expect((await call(gw, 'a', 'GetTask', { id: task.id })).result).toEqual(task);
    expect((await call(gw, 'b', 'GetTask', { id: onB.id })).result).toEqual(onB);
    expect((await call(gw, 'b', 'GetTask', { id: task.id })).error.code).toBe(TASK_NOT_FOUND);
    expect((await call(gw, 'b', 'ListTasks', {})).result.tasks.map((t: { id: string }) => t.id)).toEqual([onB.id]);
  });

  it('keeps what a single agent wrote with the default agent of the gateway on the same store', async () => {
    let solo = await start({});
    const task = (await call(solo, undefined, 'SendMessage', { message: userMessage('before the gateway') })).result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    await solo.close();

    const gw = await start({ agents: AGENTS, defaultAgent: 'b' });
    expect((await call(gw, 'b', 'GetTask', { id: task.id })).result).toEqual(task);
    expect((await call(gw, undefined, 'GetTask', { id: task.id })).result).toEqual(task);
    expect((await call(gw, 'a', 'GetTask', { id: task.id })).error.code).toBe(TASK_NOT_FOUND);
    await gw.close();

    // And back: the single agent still reads it, and none of the other agent's tasks.
    solo = await start({});
    expect((await call(solo, undefined, 'GetTask', { id: task.id })).result).toEqual(task);
  });

  it('streams and resumes on the agent that owns the task only', async () => {
    const gw = await start({ agents: AGENTS });
    const res = await postJson(`${gw.url}/agents/a/a2a/rpc`, rpc('SendStreamingMessage', { message: userMessage('stream on a') }), {
      Accept: 'text/event-stream',
    });
    const text = await res.text();
    const id = /"id":"([^"]+)","contextId"/.exec(text)?.[1];
    expect(id).toBeDefined();
    const onB = await postJson(`${gw.url}/agents/b/a2a/rpc`, rpc('SubscribeToTask', { id }), { Accept: 'text/event-stream' });
    expect(await onB.text()).toContain(String(TASK_NOT_FOUND));
    expect((await call(gw, 'a', 'GetTask', { id })).result.status.state).toBe('TASK_STATE_COMPLETED');
  });
}

describe('mounted agents on one SQLite file', () => {
  let dir: string;
  let path: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'a2a-agents-durable-'));
  });
  beforeEach(() => {
    path = join(dir, `${crypto.randomUUID()}.db`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  isolationSuite(() => ({ store: { kind: 'sqlite', path } }));
});

describeWithPostgresAndRedis('mounted agents on one PostgreSQL schema and one Redis prefix', () => {
  const names: string[] = [];
  let schema: string;
  beforeEach(() => {
    schema = uniqueName('a2a_agents');
    names.push(schema);
  });
  afterAll(async () => {
    for (const name of names) await cleanUp(name, name);
  });
  const storage = () => ({
    store: { kind: 'postgres' as const, url: POSTGRES_URL, schema },
    eventLog: { kind: 'redis' as const, url: REDIS_URL, prefix: schema },
  });
  isolationSuite(storage);

  const instances: RunningExecutor[] = [];
  afterEach(async () => {
    await Promise.all(instances.splice(0).map((r) => r.close()));
  });
  it("serves agent b's task from either instance, cancels it across them, and never on agent a", async () => {
    for (const instanceId of ['g1', 'g2'])
      instances.push(
        await startExecutor(
          { port: 0, grpcPort: 0, host: '127.0.0.1', instanceId, shutdownGraceMs: 100, ...storage(), agents: AGENTS },
          { logger: silentLogger },
        ),
      );
    const [g1, g2] = instances as [RunningExecutor, RunningExecutor];
    const slow = (await call(g1, 'b', 'SendMessage', { message: userMessage('slow'), configuration: { returnImmediately: true } })).result.task;
    await waitFor(async () => (await call(g2, 'b', 'GetTask', { id: slow.id })).result?.status.state === 'TASK_STATE_WORKING', {
      what: 'the task working on g2',
    });
    expect((await call(g2, 'a', 'GetTask', { id: slow.id })).error.code).toBe(TASK_NOT_FOUND);
    expect((await call(g2, 'a', 'CancelTask', { id: slow.id })).error.code).toBe(TASK_NOT_FOUND);
    // The cancel on g2 reaches the run on g1 (Redis signals on b's partition) and ends it.
    expect((await call(g2, 'b', 'CancelTask', { id: slow.id })).result.status.state).toBe('TASK_STATE_CANCELED');
    await waitFor(async () => (await call(g1, 'b', 'GetTask', { id: slow.id })).result?.status.state === 'TASK_STATE_CANCELED', {
      what: 'g1 to see the cancel',
    });
    expect((await call(g1, 'a', 'ListTasks', {})).result.tasks).toEqual([]);
  });
});

describe('mounted agents on one DynamoDB table', () => {
  const local = useDynaliteWithEnvCredentials();
  let table: string;
  beforeEach(() => {
    table = `a2a-agents-${crypto.randomUUID()}`;
  });
  isolationSuite(() => ({ store: { kind: 'dynamodb', table, endpoint: local().endpoint, region: 'local' } }));
});
