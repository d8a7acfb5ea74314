import type { BenchChild } from '../child.js';
import type { ScenarioName } from '../config.js';
import type { LoadJob, LoadResult } from '../load/job.js';
import type { RunContext } from '../orchestrator/context.js';
import { startLoadProcess, startServerProcess, type ServerProcess } from '../orchestrator/server-process.js';
import { buildRequest } from '../requests.js';
import type { CellResult } from '../results.js';
import type { ServerKind, Target } from '../targets.js';
import type { CellPlan } from './plan.js';

const NAN = Number.NaN;

/** The label of a cell's mode in results: ceilings answer unary calls with an echo. */
export function modeLabel(target: Target, plan: CellPlan): string {
  if (plan.work.mode === 'stream') return 'stream';
  return target.family === 'ceiling' ? 'echo' : plan.work.mode;
}

function failedCell(plan: CellPlan, rep: number, failure: string): CellResult {
  return {
    scenario: plan.scenario,
    rep,
    targetId: plan.target.id,
    family: plan.target.family,
    binding: plan.target.binding,
    mode: modeLabel(plan.target, plan),
    concurrency: plan.concurrency,
    k: plan.work.mode === 'stream' ? plan.work.k : undefined,
    pauseMs: plan.work.mode === 'stream' ? plan.work.pauseMs : undefined,
    failure,
    ops: 0,
    errors: 0,
    events: 0,
    windowMs: 0,
    opsPerS: NAN,
    eventsPerS: NAN,
    p50Ms: NAN,
    p99Ms: NAN,
    ttfeP50Ms: NAN,
    ttfeP99Ms: NAN,
    cpuUsPerOp: NAN,
    cpuUsPerEvent: NAN,
    cpuPct: NAN,
    eventsMin: 0,
    eventsMax: 0,
    check: 'not measured',
  };
}

/** Turns a load result into a result row. */
export function toCellResult(plan: CellPlan, rep: number, r: LoadResult): CellResult {
  const seconds = r.windowMs / 1000;
  const cpu = r.serverCpuUs ?? NAN;
  return {
    ...failedCell(plan, rep, ''),
    failure: undefined,
    ops: r.ops,
    errors: r.errors,
    events: r.events,
    windowMs: r.windowMs,
    opsPerS: seconds > 0 ? r.ops / seconds : NAN,
    eventsPerS: seconds > 0 ? r.events / seconds : NAN,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    ttfeP50Ms: r.ttfe.p50,
    ttfeP99Ms: r.ttfe.p99,
    cpuUsPerOp: r.ops > 0 ? cpu / r.ops : NAN,
    cpuUsPerEvent: r.events > 0 ? cpu / r.events : NAN,
    cpuPct: r.windowMs > 0 ? (cpu / 1000 / r.windowMs) * 100 : NAN,
    eventsMin: r.eventsMin,
    eventsMax: r.eventsMax,
    check: r.check,
    firstError: r.firstError,
  };
}

/**
 * Runs the cells of one throughput scenario repetition: starts every server the cells need
 * (each in its own process, fresh for this repetition), one load-generator process, gives
 * each target its server warm-up, then measures the cells back to back.
 */
export async function runCells(ctx: RunContext, scenario: ScenarioName, rep: number, cells: readonly CellPlan[]): Promise<CellResult[]> {
  const results: CellResult[] = [];
  const servers = new Map<ServerKind, ServerProcess | Error>();
  let load: BenchChild | undefined;
  try {
    for (const kind of new Set(cells.map((c) => c.target.server))) {
      try {
        const server = await startServerProcess(ctx, kind);
        servers.set(kind, server);
        for (const note of server.notes) ctx.notice(`${kind}: ${note}`);
      } catch (error) {
        servers.set(kind, error as Error);
        ctx.notice(`${scenario} rep ${rep + 1}: ${(error as Error).message}; its targets are skipped`);
      }
    }
    load = await startLoadProcess(ctx);
    await warmUp(ctx, load, servers, cells, scenario);
    const reported = new Set<string>();
    for (const plan of cells) {
      const server = servers.get(plan.target.server);
      if (!server || server instanceof Error) {
        results.push(failedCell(plan, rep, server?.message ?? 'server not started'));
        continue;
      }
      const port = server.ports[plan.target.port];
      if (!port) {
        if (!reported.has(plan.target.id)) ctx.notice(`${plan.target.id}: skipped, server ${plan.target.server} serves no ${plan.target.port} port`);
        reported.add(plan.target.id);
        results.push(failedCell(plan, rep, `no ${plan.target.port} port`));
        continue;
      }
      const job: LoadJob = {
        request: buildRequest(plan.target, plan.work, port),
        concurrency: plan.concurrency,
        warmupMs: ctx.config.warmupMs,
        durationMs: ctx.config.durationMs,
        minOps: plan.minOps,
        maxWindowMs: plan.maxWindowMs,
        drainMs: 15_000,
        serverPid: server.pid,
        clkTck: ctx.clkTck,
      };
      try {
        const timeout = (plan.maxWindowMs ?? ctx.config.durationMs) + ctx.config.warmupMs + 60_000;
        const r = await load.ipc.call<LoadResult>('run', job, timeout);
        const row = toCellResult(plan, rep, r);
        results.push(row);
        ctx.log(
          `  ${scenario} rep ${rep + 1} ${plan.target.id.padEnd(18)} ${row.mode.padEnd(7)} c=${String(plan.concurrency).padEnd(3)}${row.k !== undefined ? ` K=${row.k}` : ''}` +
            ` ${fmtRate(row.opsPerS)} ops/s${row.mode === 'stream' ? ` ${fmtRate(row.eventsPerS)} ev/s` : ''} p50 ${row.p50Ms.toFixed(2)} ms cpu ${row.cpuUsPerOp.toFixed(0)} us/op` +
            `${row.errors ? ` errors ${row.errors} (${row.firstError})` : ''}${row.check !== 'ok' ? ` [check: ${row.check}]` : ''}`,
        );
        if (row.check !== 'ok')
          ctx.notice(`${scenario} ${plan.target.id} ${row.mode} c=${plan.concurrency}${row.k !== undefined ? ` K=${row.k}` : ''}: check: ${row.check}`);
        if (row.errors > 0)
          ctx.notice(`${scenario} ${plan.target.id} ${row.mode} c=${plan.concurrency}: ${row.errors} failed operations (first: ${row.firstError})`);
      } catch (error) {
        results.push(failedCell(plan, rep, (error as Error).message));
        ctx.notice(`${scenario} ${plan.target.id} ${modeLabel(plan.target, plan)} c=${plan.concurrency}: ${(error as Error).message}`);
        if (load.ipc.exited) load = await startLoadProcess(ctx);
        if (server.child.ipc.exited) servers.set(plan.target.server, new Error(`server ${plan.target.server} crashed`));
      }
    }
  } finally {
    await load?.stop();
    await Promise.all([...servers.values()].map((s) => (s instanceof Error ? undefined : s.stop())));
  }
  return results;
}

/**
 * Server warm-up before anything is measured: every target a server carries, with every
 * workload it will be measured with (unary: Message and Task; streams: the first K only, so a
 * slow server is not held up by its largest streams), gets `serverWarmupMs` of load at
 * c ≥ 16. All of it runs before the first window, so no measured cell pays for JIT
 * compilation of a code path the cells before it did not exercise.
 */
async function warmUp(
  ctx: RunContext,
  load: BenchChild,
  servers: Map<ServerKind, ServerProcess | Error>,
  cells: readonly CellPlan[],
  scenario: ScenarioName,
): Promise<void> {
  if (ctx.config.serverWarmupMs <= 0) return;
  const chosen = new Map<string, CellPlan>();
  const k = (p: CellPlan) => (p.work.mode === 'stream' ? p.work.k : 0);
  for (const plan of cells) {
    const key = scenario === 'unary' ? `${plan.target.id}|${plan.work.mode}` : plan.target.id;
    const prev = chosen.get(key);
    if (!prev || k(plan) < k(prev)) chosen.set(key, plan);
  }
  for (const plan of chosen.values()) {
    const server = servers.get(plan.target.server);
    const port = server && !(server instanceof Error) ? server.ports[plan.target.port] : undefined;
    if (!server || server instanceof Error || !port) continue;
    const job: LoadJob = {
      request: buildRequest(plan.target, plan.work, port),
      concurrency: Math.max(plan.concurrency, 16),
      warmupMs: ctx.config.serverWarmupMs,
      durationMs: 50,
      drainMs: 15_000,
      serverPid: server.pid,
      clkTck: ctx.clkTck,
    };
    await load.ipc
      .call<LoadResult>('run', job, ctx.config.serverWarmupMs + 60_000)
      .catch((error: Error) => ctx.log(`  warm-up of ${plan.target.id} failed: ${error.message}`));
  }
}

function fmtRate(v: number): string {
  return Number.isFinite(v) ? Math.round(v).toString().padStart(7) : '      -';
}
