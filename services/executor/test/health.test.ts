/**
 * The executor's health endpoints with real backends: `/readyz` and gRPC health report the
 * store and the Redis event log, and turn not-ready when Redis is cut (through a TCP proxy
 * standing in for a network failure) and ready again when it is back.
 */
import { silentLogger } from '@a2a-polyglot/core';
import { HealthClient, HealthCheckResponse_ServingStatus as Status } from '@a2a-polyglot/model/grpc';
import { credentials } from '@grpc/grpc-js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TcpProxy } from '../../../packages/stores/test/tcp-proxy.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { cleanUp, describeWithPostgresAndRedis, POSTGRES_URL, REDIS_URL, uniqueName } from './durable-services.js';
import { waitFor } from './helpers.js';

async function readyz(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/readyz`);
  return { status: res.status, body: await res.json() };
}

function grpcStatus(target: string): Promise<Status> {
  const client = new HealthClient(target, credentials.createInsecure());
  return new Promise<Status>((resolve, reject) =>
    client.check({ service: 'lf.a2a.v1.A2AService' }, (error, response) => {
      client.close();
      if (error) reject(error);
      else resolve(response!.status);
    }),
  ).finally(() => client.close());
}

describe('executor health (SQLite)', () => {
  let dir: string;
  let ex: RunningExecutor;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'a2a-health-'));
    ex = await startExecutor({ port: 0, grpcPort: 0, host: '127.0.0.1', store: { path: join(dir, 'tasks.db') } }, { logger: silentLogger });
  });
  afterAll(async () => {
    await ex.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('/healthz is alive, /readyz and gRPC health report the store', async () => {
    expect((await fetch(`${ex.url}/healthz`)).status).toBe(200);
    expect(await readyz(ex.url)).toEqual({ status: 200, body: { status: 'ready', checks: [{ name: 'store', ok: true }] } });
    expect(await grpcStatus(ex.grpc!.url)).toBe(Status.SERVING);
  });
});

describeWithPostgresAndRedis('executor health (PostgreSQL + Redis)', () => {
  const schema = uniqueName('a2a_health');
  let proxy: TcpProxy;
  let ex: RunningExecutor;
  beforeAll(async () => {
    const redis = new URL(REDIS_URL!);
    proxy = new TcpProxy(redis.hostname, Number(redis.port || 6379));
    await proxy.up();
    ex = await startExecutor(
      { port: 0, grpcPort: 0, host: '127.0.0.1', store: { url: POSTGRES_URL, schema }, eventLog: { url: proxy.rewrite(REDIS_URL!), prefix: schema } },
      { logger: silentLogger },
    );
  });
  afterAll(async () => {
    await proxy.up();
    await ex?.close();
    await proxy.down();
    await cleanUp(schema, schema);
  });

  it('is ready while both answer, names the event log when Redis is cut, and recovers', async () => {
    expect(await readyz(ex.url)).toEqual({
      status: 200,
      body: {
        status: 'ready',
        checks: [
          { name: 'store', ok: true },
          { name: 'event-log', ok: true },
        ],
      },
    });
    await proxy.down();
    await waitFor(async () => (await readyz(ex.url)).status === 503, { timeoutMs: 10_000 });
    const down = await readyz(ex.url);
    expect(down.body.status).toBe('not ready');
    expect(down.body.checks[0]).toEqual({ name: 'store', ok: true });
    expect(down.body.checks[1]).toMatchObject({ name: 'event-log', ok: false });
    expect(await grpcStatus(ex.grpc!.url)).toBe(Status.NOT_SERVING);
    await proxy.up();
    await waitFor(async () => (await readyz(ex.url)).status === 200, { timeoutMs: 10_000 });
    expect(await grpcStatus(ex.grpc!.url)).toBe(Status.SERVING);
  });
});
