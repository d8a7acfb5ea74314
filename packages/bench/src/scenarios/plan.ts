import type { BenchConfig, ScenarioName } from '../config.js';
import type { Workload } from '../requests.js';
import { requireTarget, targetSelected, type Target } from '../targets.js';

/** One cell: a target under one workload at one concurrency. */
export interface CellPlan {
  readonly scenario: ScenarioName;
  readonly target: Target;
  readonly work: Workload;
  readonly concurrency: number;
  /** Streams of large K are slow on some servers: keep the window open for at least this many. */
  readonly minOps?: number;
  readonly maxWindowMs?: number;
}

/** Targets each scenario measures (ids, in run order). */
export const SCENARIO_TARGETS: Readonly<Record<ScenarioName, readonly string[]>> = {
  core: [],
  unary: [
    'raw-http',
    'ours-jsonrpc',
    'bare-jsonrpc',
    'sdk-jsonrpc',
    'ours-rest',
    'bare-rest',
    'sdk-rest',
    'raw-grpc',
    'ours-grpc',
    'bare-grpc',
    'sdk-grpc',
    'ours-grpc-session',
    'raw-ws',
    'ours-ws',
    'bare-ws',
  ],
  stream: ['raw-http', 'ours-jsonrpc', 'sdk-jsonrpc', 'ours-rest', 'sdk-rest', 'raw-grpc', 'ours-grpc', 'sdk-grpc', 'ours-grpc-session', 'raw-ws', 'ours-ws'],
  kscale: ['raw-http', 'ours-jsonrpc', 'sdk-jsonrpc', 'ours-grpc'],
  ttfe: ['raw-http', 'ours-jsonrpc', 'sdk-jsonrpc', 'ours-rest', 'sdk-rest', 'raw-grpc', 'ours-grpc', 'sdk-grpc', 'raw-ws', 'ours-ws'],
  idle: ['raw-http', 'ours-jsonrpc', 'ours-rest', 'sdk-jsonrpc', 'ours-grpc', 'raw-ws', 'ours-ws'],
  sustained: ['ours-jsonrpc'],
  longpoll: ['ours-rest'],
  durable: ['ours-jsonrpc'],
};

/** The targets of a scenario that pass the TARGETS filter (pending ones included, to be reported as skipped). */
export function scenarioTargets(scenario: ScenarioName, config: BenchConfig): Target[] {
  return SCENARIO_TARGETS[scenario].map(requireTarget).filter((t) => targetSelected(t, config.targets));
}

/**
 * The cells of a throughput scenario for one repetition. Within a concurrency (or K) block
 * each ceiling runs next to the targets it bounds; odd repetitions run the whole list in
 * reverse, so drift on a noisy machine, and whatever warm-up a fresh server still lacks, do
 * not always favour the same side of a ratio or the same concurrency.
 */
export function planCells(scenario: ScenarioName, config: BenchConfig, rep: number): CellPlan[] {
  const targets = scenarioTargets(scenario, config).filter((t) => !t.pending);
  const blocks: CellPlan[][] = [];
  const modes = (t: Target): Workload[] => (t.family === 'ceiling' ? [{ mode: 'task' }] : [{ mode: 'message' }, { mode: 'task' }]);
  switch (scenario) {
    case 'unary':
      for (const c of config.unaryConcurrency)
        blocks.push(targets.flatMap((target) => modes(target).map((work) => ({ scenario, target, work, concurrency: c }))));
      break;
    case 'stream':
      for (const c of config.streamConcurrency)
        blocks.push(targets.map((target) => ({ scenario, target, work: { mode: 'stream', k: config.streamK }, concurrency: c })));
      break;
    case 'kscale':
      for (const k of config.kList)
        blocks.push(
          targets.map((target) => ({
            scenario,
            target,
            work: { mode: 'stream', k },
            concurrency: 1,
            minOps: 3,
            maxWindowMs: Math.max(config.durationMs, 4 * config.durationMs),
          })),
        );
      break;
    case 'ttfe':
      blocks.push(targets.map((target) => ({ scenario, target, work: { mode: 'stream', k: config.ttfeK, pauseMs: config.ttfePauseMs }, concurrency: 1 })));
      break;
    default:
      return [];
  }
  const cells = blocks.flat();
  return rep % 2 === 1 ? cells.reverse() : cells;
}

/** Rough duration of a scenario (all repetitions), for the plan printed at start (seconds). */
export function estimateSeconds(scenario: ScenarioName, config: BenchConfig): number {
  const targets = scenarioTargets(scenario, config).filter((t) => !t.pending);
  const servers = new Set(targets.map((t) => t.server)).size;
  const perCell = (config.warmupMs + config.durationMs) / 1000 + 0.15;
  const warmups = scenario === 'unary' ? targets.reduce((n, t) => n + (t.family === 'ceiling' ? 1 : 2), 0) : targets.length;
  switch (scenario) {
    case 'core':
      // ~6 windows of `coreCalls` calls at ~60 µs each per repetition, plus warm-ups.
      return (config.reps * 6 + 3) * config.coreCalls * 60e-6 + 2;
    case 'idle':
      // ~4.5 s per target at 1,000 streams; the large count once, on five targets, in proportion.
      return targets.length * 4.5 * config.reps + (config.idleStreamsLarge > 0 ? 5 * 4.5 * (config.idleStreamsLarge / 1000) : 0);
    case 'sustained':
      return Math.min(config.sustainedMaxMs / 1000, config.sustainedTasks / 2500) + 4;
    case 'longpoll':
      // One server; one unrecorded task first, each task waits before its first chunk.
      return 3 + (config.longPollTasks + 1) * (0.2 + (config.longPollK * config.longPollPauseMs) / 1000);
    case 'durable':
      // Three fresh servers per repetition (in memory, SQLite, PostgreSQL + Redis), then two instances streaming the stamped tasks.
      return (
        config.reps * 3 * ((config.serverWarmupMs + config.warmupMs + config.durationMs) / 1000 + 2) +
        3 +
        (config.latencyTasks + 1) * (0.3 + (config.latencyK * config.latencyPauseMs) / 1000)
      );
    default: {
      const cells = planCells(scenario, config, 0).length;
      const slow = scenario === 'kscale' && targets.some((t) => t.family === 'sdk') ? 8 : 0; // SDK streams at K=1000 take seconds each
      return (cells * perCell + (warmups * config.serverWarmupMs) / 1000 + servers * 1 + slow) * config.reps;
    }
  }
}
