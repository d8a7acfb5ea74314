/**
 * Shutdown while Redis is unreachable (issue 13 item 8): a real executor process, its Redis
 * behind a TCP proxy the test cuts, gets SIGTERM and must exit 0 within its documented
 * deadline (`shutdownGraceMs` + the fixed close margin), not hang on Redis reconnects.
 */
import { TcpProxy } from '../../../packages/stores/test/tcp-proxy.js';
import { SHUTDOWN_MARGIN_MS } from '../src/shutdown-deadline.js';
import { cleanUp, describeWithPostgresAndRedis, POSTGRES_URL, REDIS_URL, uniqueName } from './durable-services.js';
import { killHard, listeningUrl, spawnExecutor, type ExecutorProcess } from './spawn-executor.js';

describeWithPostgresAndRedis('executor shutdown with Redis cut (process)', () => {
  const schema = uniqueName('a2a_outage_stop');
  let proxy: TcpProxy;
  let child: ExecutorProcess | undefined;
  beforeAll(async () => {
    const redis = new URL(REDIS_URL!);
    proxy = new TcpProxy(redis.hostname, Number(redis.port || 6379));
    await proxy.up();
  });
  afterAll(async () => {
    if (child) await killHard(child);
    await proxy.down();
    await cleanUp(schema, schema);
  });

  it('exits 0 within shutdownGraceMs + the margin after SIGTERM', async () => {
    const graceMs = 500;
    child = spawnExecutor({
      PORT: '0',
      GRPC_PORT: 'off',
      A2A_STORE: 'postgres',
      A2A_POSTGRES_URL: POSTGRES_URL!,
      A2A_POSTGRES_SCHEMA: schema,
      A2A_REDIS_URL: proxy.rewrite(REDIS_URL!),
      A2A_REDIS_PREFIX: schema,
      A2A_SHUTDOWN_GRACE_MS: String(graceMs),
    });
    const url = await listeningUrl(child);
    await proxy.down();
    // The instance has seen the cut once its readiness names the event log.
    await waitForNotReady(url);
    const signalled = Date.now();
    child.process.kill('SIGTERM');
    const deadline = graceMs + SHUTDOWN_MARGIN_MS;
    const code = await Promise.race([child.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), deadline + 2000).unref())]);
    const tookMs = Date.now() - signalled;
    expect({ code, stdout: code === 'hung' ? child.stdout : '' }).toEqual({ code: 0, stdout: '' });
    expect(tookMs).toBeLessThan(deadline + 1000);
    expect(child.stdout).toContain('Received SIGTERM');
    expect(child.stdout).toContain('Stopped');
  }, 30_000);
});

async function waitForNotReady(url: string): Promise<void> {
  const { waitFor } = await import('./helpers.js');
  await waitFor(async () => (await fetch(`${url}/readyz`)).status === 503, { timeoutMs: 10_000 });
}
