import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSse } from '@a2a-polyglot/sse';
import { readStamp, wallClockUs } from '../agents/agent-mode.js';
import type { LoadJob, LoadResult } from '../load/job.js';
import type { RunContext } from '../orchestrator/context.js';
import { portOf, startLoadProcess, startServerProcess, type ServerProcess } from '../orchestrator/server-process.js';
import { BASE_PATH, buildRequest } from '../requests.js';
import type { DurableResult, DurableStorage, DurableThroughput } from '../results.js';
import type { OursStorage } from '../servers/ours-server.js';
import { LOOPBACK } from '../servers/started-server.js';
import { summarizeLatencies } from '../stats.js';
import { requireTarget } from '../targets.js';

type PostgresModule = typeof import('@a2a-polyglot/stores/postgres');
type RedisModule = typeof import('@a2a-polyglot/stores/redis');

/** PostgreSQL and Redis URLs of the durable scenario, or undefined when either is unset. */
export function durableUrls(env: Readonly<Record<string, string | undefined>> = process.env): { postgres: string; redis: string } | undefined {
  const postgres = env.A2A_BENCH_POSTGRES_URL?.trim() || env.A2A_TEST_POSTGRES_URL?.trim();
  const redis = env.A2A_BENCH_REDIS_URL?.trim() || env.A2A_TEST_REDIS_URL?.trim();
  return postgres && redis ? { postgres, redis } : undefined;
}

/**
 * The durable scenario (issues 6 and 14): SendMessage → Task at c = `DURABLE_CONC` in memory,
 * on one SQLite file, and on PostgreSQL + Redis, back to back in each repetition (fresh
 * servers, the order reversed every other repetition), then the cross-instance event latency:
 * two executor processes on the same PostgreSQL + Redis, a subscriber on B, tasks sent to A
 * whose agent stamps each chunk with its emit time; latency = receive time on B's stream −
 * emit time on A (one machine clock). Everything lives in a fresh schema, key prefix and
 * temporary directory, removed at the end. Without PostgreSQL and Redis, only in memory and
 * SQLite run.
 */
export async function runDurable(ctx: RunContext): Promise<DurableResult | undefined> {
  const urls = durableUrls();
  if (!urls)
    ctx.notice(
      'durable: PostgreSQL + Redis skipped (in memory and SQLite only): set A2A_BENCH_POSTGRES_URL and A2A_BENCH_REDIS_URL (or A2A_TEST_POSTGRES_URL and A2A_TEST_REDIS_URL)',
    );
  const name = `a2a_bench_${process.pid}_${Date.now().toString(36)}`;
  const dir = mkdtempSync(join(tmpdir(), 'a2a-bench-sqlite-'));
  const shared = (pg: { postgres: string; redis: string }, instanceId: string): OursStorage => ({
    store: { kind: 'postgres', url: pg.postgres, schema: name },
    eventLog: { kind: 'redis', url: pg.redis, prefix: name },
    instanceId,
  });
  const storages: DurableStorage[] = urls ? ['memory', 'sqlite', 'postgres'] : ['memory', 'sqlite'];
  const option = (storage: DurableStorage, rep: number): OursStorage | undefined => {
    if (storage === 'sqlite') return { store: { kind: 'sqlite', path: join(dir, `tasks-${rep}.db`) } };
    return storage === 'postgres' && urls ? shared(urls, `${name}_tp`) : undefined;
  };
  const throughput: DurableThroughput[] = [];
  let latency: DurableResult['latency'];
  let failure: string | undefined;
  try {
    for (let rep = 0; rep < ctx.config.reps; rep++) {
      const order = rep % 2 ? [...storages].reverse() : storages;
      for (const storage of order) throughput.push(await measureThroughput(ctx, rep, storage, option(storage, rep)));
    }
    if (urls) latency = await measureCrossInstance(ctx, shared(urls, `${name}_a`), shared(urls, `${name}_b`));
  } catch (error) {
    failure = (error as Error).message;
    ctx.notice(`durable: ${failure}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (urls) await cleanUp(urls, name).catch((error: Error) => ctx.notice(`durable: could not remove schema/prefix ${name}: ${error.message}`));
  }
  return { concurrency: ctx.config.durableConcurrency, throughput, latency, failure };
}

async function measureThroughput(ctx: RunContext, rep: number, storage: DurableStorage, option: OursStorage | undefined): Promise<DurableThroughput> {
  const cfg = ctx.config;
  const target = requireTarget('ours-jsonrpc');
  const server = await startServerProcess(ctx, 'ours', option);
  const load = await startLoadProcess(ctx).catch((e: Error) => e);
  try {
    if (load instanceof Error) throw load;
    const port = portOf(server, target.port);
    const job: LoadJob = {
      request: buildRequest(target, { mode: 'task' }, port),
      concurrency: cfg.durableConcurrency,
      warmupMs: cfg.serverWarmupMs + cfg.warmupMs,
      durationMs: cfg.durationMs,
      drainMs: 15_000,
      serverPid: server.pid,
      clkTck: ctx.clkTck,
    };
    const r = await load.ipc.call<LoadResult>('run', job, cfg.durationMs + job.warmupMs + 60_000);
    const rate = r.windowMs > 0 ? (r.ops * 1000) / r.windowMs : NaN;
    ctx.log(`  durable rep ${rep + 1} ${storage}: ${rate.toFixed(0)} tasks/s at c=${cfg.durableConcurrency}, p50 ${r.latency.p50.toFixed(2)} ms`);
    if (r.check !== 'ok') ctx.notice(`durable ${storage} rep ${rep + 1}: check ${r.check}`);
    if (r.errors > 0) ctx.notice(`durable ${storage} rep ${rep + 1}: ${r.errors} failed (${r.firstError ?? '?'})`);
    return {
      rep,
      storage,
      tasksPerS: rate,
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      cpuUsPerOp: r.serverCpuUs !== undefined && r.ops > 0 ? r.serverCpuUs / r.ops : NaN,
      errors: r.errors,
      check: r.check,
    };
  } finally {
    if (!(load instanceof Error)) await load.stop();
    await server.stop();
  }
}

async function measureCrossInstance(ctx: RunContext, a: OursStorage, b: OursStorage): Promise<DurableResult['latency']> {
  const cfg = ctx.config;
  const [serverA, serverB] = await Promise.all([startServerProcess(ctx, 'ours', a), startServerProcess(ctx, 'ours', b)]);
  try {
    const portA = portOf(serverA, 'http');
    const portB = portOf(serverB, 'http');
    const samples: number[] = [];
    let lost = 0;
    // One unrecorded task first: connections, prepared statements and JIT warm up.
    for (let t = -1; t < cfg.latencyTasks; t++) {
      const text = `stamp ${cfg.latencyK} ${cfg.latencyPauseMs} ${SUBSCRIBE_HEADROOM_MS}`;
      const taskId = await sendToA(portA, text);
      const got = await subscribeOnB(portB, taskId);
      if (t >= 0) {
        samples.push(...got);
        lost += Math.max(0, cfg.latencyK - got.length);
      }
    }
    const summary = summarizeLatencies(samples);
    ctx.log(`  durable cross-instance: ${samples.length} events, p50 ${summary.p50.toFixed(3)} ms, p99 ${summary.p99.toFixed(3)} ms`);
    if (lost > 0) ctx.notice(`durable cross-instance: ${lost} stamped events did not arrive on B`);
    return {
      events: samples.length,
      lost,
      tasks: cfg.latencyTasks,
      k: cfg.latencyK,
      pauseMs: cfg.latencyPauseMs,
      p50Ms: summary.p50,
      p99Ms: summary.p99,
      maxMs: summary.max,
    };
  } finally {
    await Promise.all([serverA.stop(), serverB.stop()] satisfies Array<ReturnType<ServerProcess['stop']>>);
  }
}

/** The agent waits this long before its first chunk, so B's subscription is open by then. */
const SUBSCRIBE_HEADROOM_MS = 150;

function post(port: number, path: string, body: string, accept: string): Promise<import('node:http').IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: LOOPBACK, port, path, method: 'POST', headers: { 'content-type': 'application/json', accept, 'a2a-version': '1.0' } },
      resolve,
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`POST ${path} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

async function sendToA(port: number, text: string): Promise<string> {
  const body = JSON.stringify({
    message: { messageId: `lat-${Date.now()}-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] },
    configuration: { returnImmediately: true },
  });
  const res = await post(port, `${BASE_PATH}/message:send`, body, 'application/json');
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { task?: { id?: string } };
  if (res.statusCode !== 200 || !json.task?.id)
    throw new Error(`SendMessage on instance A answered ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}`);
  return json.task.id;
}

/** Subscribes on B and returns the latency (µs) of every stamped chunk, until the stream ends. */
async function subscribeOnB(port: number, taskId: string): Promise<number[]> {
  const res = await post(port, `${BASE_PATH}/tasks/${encodeURIComponent(taskId)}:subscribe`, '', 'text/event-stream');
  if (res.statusCode !== 200) throw new Error(`SubscribeToTask on instance B answered ${res.statusCode}`);
  const latencies: number[] = [];
  for await (const event of readSse(res)) {
    const stamp = readStamp(event.data);
    if (stamp !== undefined) latencies.push(wallClockUs() - stamp);
  }
  return latencies;
}

async function cleanUp(urls: { postgres: string; redis: string }, name: string): Promise<void> {
  const { createPostgresPool } = require('@a2a-polyglot/stores/postgres') as PostgresModule;
  const { RedisConnections } = require('@a2a-polyglot/stores/redis') as RedisModule;
  const pool = createPostgresPool({ url: urls.postgres, maxConnections: 1 });
  try {
    await pool.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  } finally {
    await pool.end();
  }
  const redis = await RedisConnections.connect({ url: urls.redis });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.commands.scan(cursor, 'MATCH', `${name}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.commands.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.close();
  }
}
