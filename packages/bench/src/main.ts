/**
 * `npm run bench`: the orchestrator. Starts every server in its own process (pinned to CPU 0)
 * and the load generators in another (CPU 1), runs the scenarios, and writes
 * bench-results/report.md (also printed) and bench-results/results.json.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { BenchConfigError, loadConfig, type BenchConfig } from './config.js';
import type { RunContext } from './orchestrator/context.js';
import { detectPinning } from './pinning.js';
import { renderReport } from './report/render.js';
import type { BenchRun, CellResult, CoreBudgetResult, DurableResult, IdleMemoryResult, LongPollResult, SustainedResult } from './results.js';
import { runCoreBudget } from './scenarios/core.js';
import { runDurable } from './scenarios/durable.js';
import { LARGE_IDLE_TARGETS, runIdleTarget } from './scenarios/idle.js';
import { runLongPoll } from './scenarios/long-poll.js';
import { estimateSeconds, planCells, scenarioTargets } from './scenarios/plan.js';
import { runCells } from './scenarios/run-cells.js';
import { runSustained } from './scenarios/sustained.js';
import { packageVersion } from './versions.js';

function clockTicks(): number {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const n = Number(r.stdout?.trim());
  return Number.isInteger(n) && n > 0 ? n : 100;
}

function versions(): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (name: string, entry?: string) => {
    const v = packageVersion(name, entry);
    if (v) out[name] = v;
  };
  add('@a2a-js/sdk', '@a2a-js/sdk/server');
  add('express');
  add('@grpc/grpc-js');
  add('ws');
  return out;
}

async function main(): Promise<void> {
  let config: BenchConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof BenchConfigError) {
      process.stderr.write(`bench: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const started = Date.now();
  const notices: string[] = [];
  const pinning = detectPinning(config.pin);
  const ctx: RunContext = {
    config,
    pinning,
    clkTck: clockTicks(),
    log: (line) => process.stderr.write(`${line}\n`),
    notice: (line) => {
      if (notices.includes(line)) return;
      notices.push(line);
      process.stderr.write(`notice: ${line}\n`);
    },
  };
  if (!pinning.enabled) ctx.notice(`CPU pinning off (${pinning.reason}): servers and load generators share CPUs, so numbers are less comparable`);
  if (config.cpuProfDir)
    ctx.notice(
      `CPU_PROF: servers run under node --cpu-prof (profiles in ${config.cpuProfDir}); the profiler slows them, so these figures are not comparable with other runs`,
    );
  if (process.platform !== 'linux') ctx.notice('no /proc: server CPU per operation is not measured');
  for (const [pkg, what] of [
    ['@a2a-polyglot/executor', 'our JSON-RPC/REST targets'],
    ['@a2a-polyglot/grpc', 'our gRPC targets'],
    ['@a2a-polyglot/websocket', 'our WebSocket target'],
    ['@a2a-js/sdk/server', 'the SDK targets'],
  ] as const) {
    try {
      require.resolve(pkg);
    } catch {
      ctx.notice(`${pkg} is missing or not built: ${what} are skipped`);
    }
  }
  for (const scenario of config.scenarios) for (const t of scenarioTargets(scenario, config)) if (t.pending) ctx.notice(`${t.id} skipped: ${t.pending}`);

  const estimate = config.scenarios.reduce((s, sc) => s + estimateSeconds(sc, config), 0);
  ctx.log(
    `bench: scenarios ${config.scenarios.join(', ')}; ${config.reps} rep(s), ${config.durationMs / 1000} s windows; ` +
      `pinning: ${pinning.enabled ? pinning.reason : 'off'}; estimated ${Math.ceil(estimate / 60)} min`,
  );

  const cells: CellResult[] = [];
  const idle: IdleMemoryResult[] = [];
  let sustained: SustainedResult | undefined;
  let durable: DurableResult | undefined;
  let longPoll: LongPollResult | undefined;
  let core: CoreBudgetResult | undefined;
  const write = () => {
    const run: BenchRun = {
      startedAt: new Date(started).toISOString(),
      finishedAt: new Date().toISOString(),
      elapsedS: (Date.now() - started) / 1000,
      machine: {
        cpuModel: cpus()[0]?.model ?? 'unknown',
        cpus: cpus().length,
        memGiB: Math.round(totalmem() / 2 ** 30),
        node: process.versions.node,
        platform: process.platform,
      },
      versions: versions(),
      config,
      pinning: pinning.enabled ? pinning.reason : `off (${pinning.reason})`,
      notices,
      cells,
      idle,
      sustained,
      durable,
      longPoll,
      core,
    };
    const report = renderReport(run);
    mkdirSync(config.outDir, { recursive: true });
    writeFileSync(join(config.outDir, 'results.json'), `${JSON.stringify(run, null, 2)}\n`);
    writeFileSync(join(config.outDir, 'report.md'), `${report}\n`);
    return report;
  };

  for (const scenario of config.scenarios) {
    const t0 = Date.now();
    ctx.log(`== ${scenario}`);
    if (scenario === 'core') {
      core = await runCoreBudget(ctx);
      if (core.failure) ctx.notice(`core: ${core.failure}`);
    } else if (scenario === 'idle') {
      const targets = scenarioTargets(scenario, config).filter((t) => !t.pending);
      for (let rep = 0; rep < config.reps; rep++) for (const t of rep % 2 ? [...targets].reverse() : targets) idle.push(await runIdleTarget(ctx, t, rep));
      if (config.idleStreamsLarge > 0 && config.idleStreamsLarge !== config.idleStreams)
        for (const t of targets.filter((x) => LARGE_IDLE_TARGETS.includes(x.id))) idle.push(await runIdleTarget(ctx, t, 0, config.idleStreamsLarge));
      for (const r of idle) if (r.failure) ctx.notice(`idle ${r.targetId} rep ${r.rep + 1}: ${r.failure}`);
    } else if (scenario === 'durable') {
      durable = await runDurable(ctx).catch((error: Error) => {
        ctx.notice(`durable: ${error.message}`);
        return undefined;
      });
    } else if (scenario === 'longpoll') {
      longPoll = await runLongPoll(ctx);
    } else if (scenario === 'sustained') {
      const target = scenarioTargets(scenario, config).find((t) => !t.pending);
      if (target) {
        sustained = await runSustained(ctx, target).catch((error: Error) => {
          ctx.notice(`sustained: ${error.message}`);
          return undefined;
        });
        if (sustained?.failure) ctx.notice(`sustained: ${sustained.failure}`);
      }
    } else {
      for (let rep = 0; rep < config.reps; rep++) cells.push(...(await runCells(ctx, scenario, rep, planCells(scenario, config, rep))));
    }
    ctx.log(`== ${scenario} done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    write();
  }
  const report = write();
  process.stdout.write(`${report}\n`);
  ctx.log(`bench: done in ${((Date.now() - started) / 1000).toFixed(0)} s; wrote ${join(config.outDir, 'report.md')} and results.json`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
