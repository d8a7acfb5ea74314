/**
 * PostgreSQL or Redis going away under a running service: requests fail with Unavailable (no
 * crash, no hang, no partial task), and the service recovers by itself when they return.
 */
import { A2AErrorCode, callContext, RequestHandler, silentLogger, type AgentExecutor, type EventStream } from '@a2a-polyglot/core';
import { testAgentCard, userSend, eventually } from '@a2a-polyglot/testing';
import { createPostgresPool, migratePostgres, PostgresPushConfigStore, PostgresTaskStore } from '@a2a-polyglot/stores/postgres';
import { RedisConnections, RedisEventLog, RedisTaskSignals } from '@a2a-polyglot/stores/redis';
import type { Pool } from 'pg';
import { deleteKeys, describeWithPostgresAndRedis, POSTGRES_URL, REDIS_URL, uniqueName } from './services.js';
import { TcpProxy } from './tcp-proxy.js';

jest.setTimeout(30_000);

const echo: AgentExecutor = {
  async execute(ctx) {
    ctx.working();
    ctx.artifact({ text: `echo ${ctx.text}`, lastChunk: true });
    ctx.complete();
  },
};

const ctx = () => callContext('IN-PROCESS', { 'a2a-version': '1.0' });

async function drain(stream: EventStream): Promise<number> {
  let n = 0;
  for await (const _ of stream) n++;
  return n;
}

describeWithPostgresAndRedis('faults: PostgreSQL or Redis down', () => {
  const schema = uniqueName('a2a_faults');
  const pgProxy = new TcpProxy(new URL(POSTGRES_URL ?? 'postgres://x').hostname, Number(new URL(POSTGRES_URL ?? 'postgres://x:5432').port || 5432));
  const redisProxy = new TcpProxy(new URL(REDIS_URL ?? 'redis://x').hostname, Number(new URL(REDIS_URL ?? 'redis://x:6379').port || 6379));
  let pool: Pool;
  let redis: RedisConnections;
  let handler: RequestHandler;

  beforeAll(async () => {
    await Promise.all([pgProxy.up(), redisProxy.up()]);
    pool = createPostgresPool({ url: pgProxy.rewrite(POSTGRES_URL!), maxConnections: 4, connectTimeoutMs: 1000, queryTimeoutMs: 2000 });
    await migratePostgres(pool, { schema });
    redis = await RedisConnections.connect({ url: redisProxy.rewrite(REDIS_URL!) });
    handler = new RequestHandler({
      card: testAgentCard(),
      executor: echo,
      logger: silentLogger,
      taskStore: new PostgresTaskStore(pool, { schema }),
      pushConfigStore: new PostgresPushConfigStore(pool, { schema }),
      eventLog: new RedisEventLog(redis, { prefix: schema }),
      cluster: { instanceId: 'faulty', signals: new RedisTaskSignals(redis, { prefix: schema }) },
    });
  });

  afterAll(async () => {
    const step = async (name: string, work: () => Promise<unknown>) => {
      const t = Date.now();
      await work().catch(() => undefined);
      if (Date.now() - t > 1000) console.warn(`afterAll ${name} took ${Date.now() - t} ms`);
    };
    await step('proxies up', () => Promise.all([pgProxy.up(), redisProxy.up()]));
    await step('shutdown', () => handler.shutdown(0));
    await step('drop schema', () => pool.query(`DROP SCHEMA "${schema}" CASCADE`));
    await step('delete keys', () => deleteKeys(redis, schema));
    await step('close', () => Promise.all([pool.end(), redis.close()]));
    await step('proxies down', () => Promise.all([pgProxy.down(), redisProxy.down()]));
  });

  it('PostgreSQL down: calls fail with Unavailable and no partial task; back up: the service works again', async () => {
    const before = await handler.sendMessage(userSend('before'), ctx());
    expect(before.payload?.$case).toBe('task');
    await pgProxy.down();
    await expect(handler.sendMessage(userSend('during'), ctx())).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
    await expect(
      handler.getTask({ tenant: '', id: (before.payload as { value: { id: string } }).value.id, historyLength: undefined }, ctx()),
    ).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
    await expect(
      handler.listTasks(
        {
          tenant: '',
          contextId: '',
          status: 0,
          pageSize: 10,
          pageToken: '',
          historyLength: undefined,
          statusTimestampAfter: undefined,
          includeArtifacts: undefined,
        },
        ctx(),
      ),
    ).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
    await pgProxy.up();
    const after = await eventually(() => handler.sendMessage(userSend('after'), ctx()));
    expect((after.payload as { value: { status: { state: number } } }).value.status.state).toBe(3);
    // Only the tasks that were accepted exist: nothing half-written from the outage.
    const list = await handler.listTasks(
      { tenant: '', contextId: '', status: 0, pageSize: 10, pageToken: '', historyLength: undefined, statusTimestampAfter: undefined, includeArtifacts: true },
      ctx(),
    );
    expect(list.tasks.map((t) => t.artifacts[0]?.parts[0]?.content?.value).sort()).toEqual(['echo after', 'echo before']);
    expect(handler.activeRuns).toBe(0);
  });

  it('Redis down: streams fail with Unavailable; back up: streams work again', async () => {
    expect(await drain(await handler.sendStreamingMessage(userSend('s1'), ctx()))).toBe(4);
    await redisProxy.down();
    await expect(
      (async () => {
        const stream = await handler.sendStreamingMessage(userSend('s2'), ctx());
        await drain(stream);
      })(),
    ).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
    await redisProxy.up();
    expect(await eventually(async () => drain(await handler.sendStreamingMessage(userSend('s3'), ctx())))).toBe(4);
  });
});
