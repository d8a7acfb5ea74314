/**
 * A streaming send while Redis (the event log) is unreachable (issue 13 item 9): the stream
 * could not carry the task's events, so the send is refused with Unavailable before any work
 * starts: the agent does not run and PostgreSQL holds no task, so the client's retry is safe.
 * A blocking send needs no stream and still answers the task the store holds.
 */
import { silentLogger, type AgentExecutor } from '@a2a-polyglot/core';
import { Client } from 'pg';
import { TcpProxy } from '../../../packages/stores/test/tcp-proxy.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { cleanUp, describeWithPostgresAndRedis, POSTGRES_URL, REDIS_URL, uniqueName } from './durable-services.js';
import { json, postJson, readSse, rpc, userMessage, waitFor } from './helpers.js';

async function storedTasks(schema: string): Promise<number> {
  const pg = new Client({ connectionString: POSTGRES_URL });
  await pg.connect();
  try {
    return Number((await pg.query(`SELECT count(*) AS n FROM "${schema}".a2a_tasks`)).rows[0].n);
  } finally {
    await pg.end();
  }
}

async function storedTaskIds(schema: string): Promise<string[]> {
  const pg = new Client({ connectionString: POSTGRES_URL });
  await pg.connect();
  try {
    return (await pg.query(`SELECT id FROM "${schema}".a2a_tasks`)).rows.map((r: { id: string }) => r.id);
  } finally {
    await pg.end();
  }
}

describeWithPostgresAndRedis('streaming send with Redis cut', () => {
  const schema = uniqueName('a2a_outage_stream');
  let proxy: TcpProxy;
  let ex: RunningExecutor;
  let executed = 0;
  const executor: AgentExecutor = {
    async execute(ctx) {
      executed++;
      await ctx.complete('done');
    },
  };
  beforeAll(async () => {
    const redis = new URL(REDIS_URL!);
    proxy = new TcpProxy(redis.hostname, Number(redis.port || 6379));
    await proxy.up();
    ex = await startExecutor(
      {
        port: 0,
        grpcPort: false,
        host: '127.0.0.1',
        store: { url: POSTGRES_URL, schema },
        eventLog: { url: proxy.rewrite(REDIS_URL!), prefix: schema },
        shutdownGraceMs: 200,
      },
      { logger: silentLogger, executor },
    );
    await proxy.down();
    await waitFor(async () => (await fetch(`${ex.url}/readyz`)).status === 503, { timeoutMs: 10_000 });
  });
  afterAll(async () => {
    await proxy.up();
    await ex?.close();
    await proxy.down();
    await cleanUp(schema, schema);
  });

  it('REST: answers 503 Unavailable before any stream; nothing runs, nothing is stored', async () => {
    const res = await postJson(`${ex.url}/a2a/message:stream`, { message: userMessage('hello') }, { Accept: 'text/event-stream' });
    const body = res.headers.get('content-type')?.includes('text/event-stream') ? (await readSse(res)).map((e) => e.data) : await json(res);
    expect({ status: res.status, body }).toMatchObject({ status: 503, body: { error: { status: 'UNAVAILABLE' } } });
    expect(executed).toBe(0);
    expect(await storedTasks(schema)).toBe(0);
  });

  it('JSON-RPC: answers one Unavailable error (-31503); nothing runs, nothing is stored', async () => {
    const res = await postJson(`${ex.url}/a2a/rpc`, rpc('SendStreamingMessage', { message: userMessage('hello') }), { Accept: 'text/event-stream' });
    const body = res.headers.get('content-type')?.includes('text/event-stream') ? (await readSse(res)).map((e) => e.data) : [await json(res)];
    expect(body).toEqual([expect.objectContaining({ error: expect.objectContaining({ code: -31503 }) })]);
    expect(executed).toBe(0);
    expect(await storedTasks(schema)).toBe(0);
  });

  it('a blocking send answers the task the store holds (it needs no stream)', async () => {
    const res = await postJson(`${ex.url}/a2a/message:send`, { message: userMessage('hello') });
    const body = await json(res);
    expect({ status: res.status, state: body.task?.status?.state }).toEqual({ status: 200, state: 'TASK_STATE_COMPLETED' });
    expect(executed).toBe(1);
    expect(await storedTaskIds(schema)).toEqual([body.task.id]);
  });

  it('once Redis is back, the stream names the task the store then holds', async () => {
    await proxy.up();
    await waitFor(async () => (await fetch(`${ex.url}/readyz`)).status === 200, { timeoutMs: 10_000 });
    const res = await postJson(`${ex.url}/a2a/message:stream`, { message: userMessage('hello') }, { Accept: 'text/event-stream' });
    const events = (await readSse(res)).map((e) => e.data);
    const taskId = events[0].task.id;
    expect(events[events.length - 1].statusUpdate).toMatchObject({ taskId, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(executed).toBe(2);
    expect(await storedTaskIds(schema)).toContain(taskId);
    expect(await storedTasks(schema)).toBe(2);
  });
});
