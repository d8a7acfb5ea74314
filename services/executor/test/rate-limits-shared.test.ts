/**
 * Two executor instances on one PostgreSQL and one Redis spend one rate-limit budget: the
 * executor hands the event log's Redis connection to the limiter, under the event log's prefix.
 */
import Redis from 'ioredis';
import { startExecutor, type RunningExecutor } from '../src/index.js';
import { cleanUp, describeWithPostgresAndRedis, POSTGRES_URL, REDIS_URL, uniqueName } from './durable-services.js';

jest.setTimeout(30_000);

describeWithPostgresAndRedis('rate limits across executor instances', () => {
  const schema = uniqueName('a2a_rl');
  const instances: RunningExecutor[] = [];

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.close()));
    await cleanUp(schema, schema);
  });

  const start = async (instanceId: string) => {
    const executor = await startExecutor({
      host: '127.0.0.1',
      port: 0,
      grpcPort: false,
      logLevel: 'error',
      instanceId,
      store: { url: POSTGRES_URL, schema },
      eventLog: { url: REDIS_URL, prefix: schema },
      auth: { apiKeys: { k: 'alice' } },
      rateLimit: { identityPoints: 3, identityWindowSec: 60 },
    });
    instances.push(executor);
    return executor;
  };

  const listTasks = (executor: RunningExecutor) =>
    fetch(`${executor.url}/a2a/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', 'x-api-key': 'k' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }),
    });

  it('refuses the identity on both instances once the shared budget is spent', async () => {
    const a = await start('A');
    const b = await start('B');
    expect((await listTasks(a)).status).toBe(200);
    expect((await listTasks(b)).status).toBe(200);
    expect((await listTasks(a)).status).toBe(200);
    expect((await listTasks(b)).status).toBe(429);
    expect((await listTasks(a)).status).toBe(429);
    const redis = new Redis(REDIS_URL!);
    try {
      expect(await redis.keys(`${schema}:ratelimit:identity*`)).toHaveLength(1);
    } finally {
      redis.disconnect();
    }
  });
});
