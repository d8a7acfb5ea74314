import type { LoadJob, LoadResult } from '../load/job.js';
import type { RunContext } from '../orchestrator/context.js';
import { startLoadProcess, startServerProcess } from '../orchestrator/server-process.js';
import { buildRequest } from '../requests.js';
import type { SustainedResult, SustainedSample } from '../results.js';
import type { Target } from '../targets.js';

const MB = 1024 * 1024;

/**
 * The sustained run: SendMessage → Task at steady concurrency until `sustainedTasks` tasks
 * completed (or `sustainedMaxMs` passed), sampling the server's RSS and heap every second.
 * With an evicting store (our InMemoryTaskStore keeps at most `maxTasks` terminal tasks,
 * 10,000 by default) RSS must level off; "second-half growth" says whether it did.
 */
export async function runSustained(ctx: RunContext, target: Target): Promise<SustainedResult> {
  const cfg = ctx.config;
  const base = { targetId: target.id, concurrency: cfg.sustainedConcurrency, tasksWanted: cfg.sustainedTasks };
  const server = await startServerProcess(ctx, target.server);
  const load = await startLoadProcess(ctx).catch((e: Error) => e);
  try {
    if (load instanceof Error) throw load;
    const port = server.ports[target.port];
    if (!port) throw new Error(`no ${target.port} port`);
    const start = await server.usage(true);
    const firstSample: SustainedSample = { tasks: 0, elapsedS: 0, rssMB: start.rss / MB, heapMB: start.heapUsed / MB };
    const samples: SustainedSample[] = [firstSample];
    let sampling = false;
    load.ipc.on('progress', (p: { ops: number; elapsedMs: number }) => {
      if (sampling) return;
      sampling = true;
      server
        .usage(false)
        .then((u) => samples.push({ tasks: p.ops, elapsedS: p.elapsedMs / 1000, rssMB: u.rss / MB, heapMB: u.heapUsed / MB }))
        .catch(() => undefined)
        .finally(() => (sampling = false));
    });
    const job: LoadJob = {
      request: buildRequest(target, { mode: 'task' }, port),
      concurrency: cfg.sustainedConcurrency,
      warmupMs: 0,
      durationMs: cfg.sustainedMaxMs,
      stopAfterOps: cfg.sustainedTasks,
      progressEveryMs: 1000,
      drainMs: 15_000,
      serverPid: server.pid,
      clkTck: ctx.clkTck,
    };
    ctx.log(`  sustained ${target.id}: ${cfg.sustainedTasks} tasks at c=${cfg.sustainedConcurrency} (at most ${cfg.sustainedMaxMs / 1000} s)`);
    const r = await load.ipc.call<LoadResult>('run', job, cfg.sustainedMaxMs + 60_000);
    const end = await server.usage(false);
    const elapsedS = r.windowMs / 1000;
    samples.push({ tasks: r.ops, elapsedS, rssMB: end.rss / MB, heapMB: end.heapUsed / MB });
    const final = await server.usage(true);
    const middle = samples.reduce((best, s) => (Math.abs(s.tasks - r.ops / 2) < Math.abs(best.tasks - r.ops / 2) ? s : best), firstSample);
    const result: SustainedResult = {
      ...base,
      tasksDone: r.ops,
      errors: r.errors,
      elapsedS,
      tasksPerS: elapsedS > 0 ? r.ops / elapsedS : NaN,
      startRssMB: start.rss / MB,
      samples,
      finalRssMB: final.rss / MB,
      finalHeapMB: final.heapUsed / MB,
      secondHalfGrowth: middle.rssMB > 0 ? (end.rss / MB - middle.rssMB) / middle.rssMB : NaN,
      check: r.check,
    };
    ctx.log(
      `  sustained ${target.id}: ${r.ops} tasks in ${elapsedS.toFixed(1)} s, RSS ${result.startRssMB.toFixed(0)} → ${(end.rss / MB).toFixed(0)} MB (after GC ${result.finalRssMB.toFixed(0)} MB), second-half growth ${(result.secondHalfGrowth * 100).toFixed(1)} %`,
    );
    return result;
  } catch (error) {
    return {
      ...base,
      tasksDone: 0,
      errors: 0,
      elapsedS: 0,
      tasksPerS: NaN,
      startRssMB: NaN,
      samples: [],
      finalRssMB: NaN,
      finalHeapMB: NaN,
      secondHalfGrowth: NaN,
      check: 'not measured',
      failure: (error as Error).message,
    };
  } finally {
    if (!(load instanceof Error)) await load.stop();
    await server.stop();
  }
}
