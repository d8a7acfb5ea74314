import { ApiKeyAuthenticator, RequestHandler, silentLogger } from '@a2a-polyglot/core';
import { describeWithRedis, REDIS_URL, uniqueName } from '@a2a-polyglot/testing';
import Redis from 'ioredis';
import { createRateLimiter } from '../src/index.js';
import { Gates, rpc, startTestServer, testCard, scriptedAgent, type TestServer, V } from './helpers.js';

describeWithRedis('rate limits shared through Redis', () => {
  const clients: Redis[] = [];
  const servers: TestServer[] = [];

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    for (const c of clients) c.disconnect();
  });

  /** One instance: its own handler, server and Redis connection, the shared key prefix. */
  async function instance(keyPrefix: string): Promise<TestServer> {
    const redis = new Redis(REDIS_URL!, { enableOfflineQueue: false, lazyConnect: true });
    await redis.connect();
    clients.push(redis);
    const handler = new RequestHandler({
      card: testCard(),
      executor: scriptedAgent(new Gates()),
      authenticator: new ApiKeyAuthenticator({ keys: { ka: 'alice' } }),
      rateLimiter: createRateLimiter({ perIdentity: { points: 3, durationSeconds: 60 }, redis, keyPrefix }),
      logger: silentLogger,
    });
    const server = await startTestServer({ handler });
    servers.push(server);
    return server;
  }

  it('two instances spend one budget per identity', async () => {
    const prefix = uniqueName('a2a_rl');
    const [a, b] = [await instance(prefix), await instance(prefix)];
    const headers = { ...V, 'x-api-key': 'ka' };
    expect((await rpc(a!.rpcUrl, 'ListTasks', {}, headers)).status).toBe(200);
    expect((await rpc(b!.rpcUrl, 'ListTasks', {}, headers)).status).toBe(200);
    expect((await rpc(a!.rpcUrl, 'ListTasks', {}, headers)).status).toBe(200);
    // The fourth request is over the shared budget of 3, whichever instance it reaches.
    const onB = await rpc(b!.rpcUrl, 'ListTasks', {}, headers);
    expect(onB.status).toBe(429);
    expect(onB.body.error.code).toBe(-31430);
    expect((await rpc(a!.rpcUrl, 'ListTasks', {}, headers)).status).toBe(429);
    // A third instance with another prefix (another deployment) has its own budget.
    const c = await instance(uniqueName('a2a_rl'));
    expect((await rpc(c.rpcUrl, 'ListTasks', {}, headers)).status).toBe(200);
  });
});
