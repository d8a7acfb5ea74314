/**
 * A queued executor deployment in child processes, for the kill -9 test and its loop script
 * (`scripts/queue-kill-loop.ts`): one frontend (`--role frontend`) and two workers
 * (`--role worker`) on one PostgreSQL schema and one Redis prefix, serving two agent modules —
 * `retry` (retryable) and `once` (not) — that report which process runs them and then tick
 * slowly. {@link QueueCluster.trial} streams one task from the frontend, kills the worker that
 * runs it with SIGKILL (or stops it gracefully with SIGTERM), starts a fresh worker in its
 * place, and says how the task ended and whether the stream's event numbers had a gap.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postJson, readSse, userMessage, type SseEvent } from './helpers.js';
import { killHard, listeningUrl, spawnExecutor, terminate, workerStarted, type ExecutorProcess } from './spawn-executor.js';

/** The agent of both entries: says which process runs it, then ticks, then completes. */
const TICKING_AGENT = `'use strict';
const sleep = (ms, signal) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
});
module.exports = {
  async execute(ctx) {
    ctx.working('running on ' + process.pid);
    for (let i = 0; i < 40 && !ctx.signal.aborted; i++) {
      await sleep(25, ctx.signal);
      ctx.artifact({ artifactId: 'ticks', text: 'tick ' + i + ' ', append: i > 0 });
    }
    ctx.complete('done on ' + process.pid);
  },
};
`;

/** How one trial went. */
export interface TrialOutcome {
  readonly taskId: string;
  /** The final state the stream (and the store) reported. */
  readonly state: string;
  /** The final status message text. */
  readonly reason: string;
  /** The pids that reported running the task, in order. */
  readonly ranOn: readonly number[];
  /** Every event's seq on the stream, the Task snapshot's first. */
  readonly seqs: readonly number[];
  /** True when each seq is the one before plus one. */
  readonly gapFree: boolean;
  /** The stopped worker's exit code (null when killed). */
  readonly exitCode: number | null;
}

/** How a trial stops the worker running its task: kill -9, or the graceful SIGTERM. */
export type WorkerStop = 'kill' | 'term';

/** The running deployment. */
export interface QueueCluster {
  readonly frontendUrl: string;
  trial(agent: 'retry' | 'once', stop?: WorkerStop): Promise<TrialOutcome>;
  close(): Promise<void>;
}

/** Services of the deployment and where its data goes (its own schema and key prefix). */
export interface QueueClusterOptions {
  readonly postgresUrl: string;
  readonly redisUrl: string;
  readonly schema: string;
  readonly prefix: string;
}

const statusText = (e: SseEvent): string => (e.data?.statusUpdate?.status?.message?.parts ?? []).map((p: { text?: string }) => p.text ?? '').join('');

/** Starts the frontend and two workers and waits until the frontend listens and each worker started (workers bind no port). */
export async function startQueueCluster(options: QueueClusterOptions): Promise<QueueCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-queue-'));
  const agentPath = join(dir, 'ticking-agent.js');
  writeFileSync(agentPath, TICKING_AGENT);
  const configPath = join(dir, 'config.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      agents: [
        { id: 'retry', handler: 'module', settings: { path: agentPath }, retryable: true },
        { id: 'once', handler: 'module', settings: { path: agentPath } },
      ],
    }),
  );
  let next = 0;
  const spawnRole = (role: 'frontend' | 'worker'): ExecutorProcess =>
    spawnExecutor(
      {
        PORT: '0',
        GRPC_PORT: 'off',
        A2A_STORE: 'postgres',
        A2A_POSTGRES_URL: options.postgresUrl,
        A2A_POSTGRES_SCHEMA: options.schema,
        A2A_REDIS_URL: options.redisUrl,
        A2A_REDIS_PREFIX: options.prefix,
        A2A_INSTANCE_ID: `${role}-${next++}`,
        A2A_QUEUE: 'true',
        A2A_ROLE: role,
        A2A_QUEUE_POLL_MS: '20',
        A2A_LEASE_MS: '600',
        A2A_LEASE_SWEEP_MS: '100',
        A2A_SHUTDOWN_GRACE_MS: '100',
        A2A_IDEMPOTENCY_WINDOW_MS: '0',
      },
      ['--config', configPath],
    );
  const frontend = spawnRole('frontend');
  const workers = [spawnRole('worker'), spawnRole('worker')];
  let frontendUrl: string;
  try {
    [frontendUrl] = await Promise.all([listeningUrl(frontend), ...workers.map((w) => workerStarted(w))]);
  } catch (error) {
    await Promise.all([frontend, ...workers].map(killHard));
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  async function trial(agent: 'retry' | 'once', stop: WorkerStop = 'kill'): Promise<TrialOutcome> {
    const res = await postJson(`${frontendUrl}/agents/${agent}/a2a/message:stream`, { message: userMessage('tick') }, { Accept: 'text/event-stream' });
    if (res.status !== 200) throw new Error(`message:stream answered ${res.status}: ${await res.text()}`);
    const ranOn: number[] = [];
    let killing: Promise<number | null> | undefined;
    const events = await readSse(res, {
      timeoutMs: 30_000,
      until: (e) => {
        const ran = /^running on (\d+)$/.exec(statusText(e));
        if (ran) {
          const pid = Number(ran[1]);
          ranOn.push(pid);
          // The first worker to run it stops at once; a fresh one takes its place.
          if (ranOn.length === 1) killing = stopWorker(pid, stop);
        }
        return false;
      },
    });
    const exitCode = (await killing) ?? null;
    const last = events[events.length - 1];
    const status = last?.data?.statusUpdate?.status ?? last?.data?.task?.status;
    const seqs = events.map((e) => Number(e.id));
    const gapFree = seqs.every((seq, i) => i === 0 || seq === seqs[i - 1]! + 1);
    return { taskId: events[0]?.data?.task?.id ?? '', state: status?.state ?? 'none', reason: last ? statusText(last) : '', ranOn, seqs, gapFree, exitCode };
  }

  async function stopWorker(pid: number, stop: WorkerStop): Promise<number | null> {
    const index = workers.findIndex((w) => w.process.pid === pid);
    if (index < 0) throw new Error(`no worker has pid ${pid}`);
    const worker = workers[index]!;
    if (stop === 'kill') await killHard(worker);
    else await terminate(worker);
    const fresh = spawnRole('worker');
    workers[index] = fresh;
    await workerStarted(fresh);
    return worker.process.exitCode;
  }

  return {
    frontendUrl,
    trial,
    close: async () => {
      await Promise.all([frontend, ...workers].map(killHard));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
