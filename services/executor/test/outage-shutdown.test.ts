/**
 * Shutdown while Redis is unreachable (issue 13 item 8): a real executor process, its Redis
 * behind a TCP proxy the test cuts, gets SIGTERM and must exit 0 within its documented
 * deadline (`shutdownGraceMs` + the fixed margin), not hang on Redis reconnects, also with a
 * task still running (which is then failed in the store, as the README describes).
 */
import { TaskState } from '@a2a-polyglot/model';
import { Client } from 'pg';
import { TcpProxy } from '../../../packages/stores/test/tcp-proxy.js';
import { shutdownDeadlineMs } from '../src/shutdown-deadline.js';
import { cleanUp, describeWithPostgresAndRedis, POSTGRES_URL, REDIS_URL, uniqueName } from './durable-services.js';
import { json, postJson, userMessage, waitFor } from './helpers.js';
import { killHard, listeningUrl, spawnExecutor, type ExecutorProcess } from './spawn-executor.js';

const GRACE_MS = 500;

describeWithPostgresAndRedis('executor shutdown with Redis cut (process)', () => {
  const schema = uniqueName('a2a_outage_stop');
  let proxy: TcpProxy;
  const children: ExecutorProcess[] = [];
  beforeEach(async () => {
    const redis = new URL(REDIS_URL!);
    proxy = new TcpProxy(redis.hostname, Number(redis.port || 6379));
    await proxy.up();
  });
  afterEach(async () => {
    for (const c of children.splice(0)) await killHard(c);
    await proxy.down();
  });
  afterAll(() => cleanUp(schema, schema));

  async function start(): Promise<{ child: ExecutorProcess; url: string }> {
    const child = spawnExecutor({
      PORT: '0',
      GRPC_PORT: 'off',
      A2A_STORE: 'postgres',
      A2A_POSTGRES_URL: POSTGRES_URL!,
      A2A_POSTGRES_SCHEMA: schema,
      A2A_REDIS_URL: proxy.rewrite(REDIS_URL!),
      A2A_REDIS_PREFIX: schema,
      A2A_SHUTDOWN_GRACE_MS: String(GRACE_MS),
    });
    children.push(child);
    return { child, url: await listeningUrl(child) };
  }

  /** Cuts Redis, waits until the instance noticed (readiness names it), sends SIGTERM, and times the exit. */
  async function cutAndStop(child: ExecutorProcess, url: string): Promise<void> {
    await proxy.down();
    await waitFor(async () => (await fetch(`${url}/readyz`)).status === 503, { timeoutMs: 10_000 });
    const signalled = Date.now();
    child.process.kill('SIGTERM');
    const deadline = shutdownDeadlineMs(GRACE_MS);
    const code = await Promise.race([child.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), deadline + 2000).unref())]);
    expect({ code, stdout: code === 'hung' ? child.stdout : '' }).toEqual({ code: 0, stdout: '' });
    expect(Date.now() - signalled).toBeLessThan(deadline + 1000);
    expect(child.stdout).toContain('Received SIGTERM');
    expect(child.stdout).toContain('Stopped');
    // Every step closed by itself: the deadline (covered by shutdown-deadline.test.ts) is only the backstop.
    expect(child.stdout + child.stderr).not.toContain('did not finish');
  }

  it('exits 0 within shutdownGraceMs + the margin after SIGTERM', async () => {
    const { child, url } = await start();
    await cutAndStop(child, url);
  }, 30_000);

  it('with a task running: exits 0 in time and the store holds the task failed by the shutdown', async () => {
    const { child, url } = await start();
    const res = await postJson(`${url}/a2a/message:send`, { message: userMessage('slow'), configuration: { returnImmediately: true } });
    const taskId = (await json(res)).task.id as string;
    await cutAndStop(child, url);
    const pg = new Client({ connectionString: POSTGRES_URL });
    await pg.connect();
    try {
      const row = (await pg.query(`SELECT state FROM "${schema}".a2a_tasks WHERE id = $1`, [taskId])).rows[0];
      expect(row?.state).toBe(TaskState.TASK_STATE_FAILED);
    } finally {
      await pg.end();
    }
  }, 30_000);
});
