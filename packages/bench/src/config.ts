import { join, resolve } from 'node:path';

/** Scenario names, in the order a full run executes them. */
export const SCENARIO_NAMES = ['core', 'unary', 'stream', 'kscale', 'ttfe', 'idle', 'sustained', 'longpoll', 'durable'] as const;
/**
 * What runs without SCENARIOS: everything but `durable`, which needs PostgreSQL and Redis and
 * would push the default run past 15 minutes on 2 cores. `SCENARIOS=all` runs every scenario.
 */
export const DEFAULT_SCENARIOS: readonly ScenarioName[] = ['core', 'unary', 'stream', 'kscale', 'ttfe', 'idle', 'sustained', 'longpoll'];
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

/**
 * Everything a run can be tuned with. Read from environment variables so `npm run bench`
 * needs no flags, and a smoke run is `SCENARIOS=unary REPS=1 DURATION_S=2 npm run bench`.
 */
export interface BenchConfig {
  /** Repetitions of every measured cell (medians are taken over them). `REPS`, default 3. */
  readonly reps: number;
  /** Measurement window per cell, ms. `DURATION_S`, default 1.2 s (a full run must fit in 15 min on 2 cores). */
  readonly durationMs: number;
  /** Unrecorded load before each window, ms. `WARMUP_S`, default 0.3 s. */
  readonly warmupMs: number;
  /** Extra unrecorded load a fresh server gets per target (per answer mode for unary), ms. `SERVER_WARMUP_S`, default 0.5 s. */
  readonly serverWarmupMs: number;
  /** Scenarios to run. `SCENARIOS` (comma list), default all. */
  readonly scenarios: readonly ScenarioName[];
  /** Target filter: ids or substrings of ids (`TARGETS=ours,raw`), empty = all. */
  readonly targets: readonly string[];
  /** Unary concurrencies. `CONC`, default 1,16,64. */
  readonly unaryConcurrency: readonly number[];
  /** Streaming concurrencies. `STREAM_CONC`, default 1,16. */
  readonly streamConcurrency: readonly number[];
  /** Chunks per stream in the streaming scenario. `STREAM_K`, default 100. */
  readonly streamK: number;
  /** Chunk counts of the cost-per-stream scenario. `K_LIST`, default 10,100,1000. */
  readonly kList: readonly number[];
  /** Chunks and pause of the time-to-first-event agent. `TTFE_K` (10), `TTFE_PAUSE_MS` (2). */
  readonly ttfeK: number;
  readonly ttfePauseMs: number;
  /** Open idle streams in the memory scenario. `IDLE_STREAMS`, default 1000. */
  readonly idleStreams: number;
  /**
   * A second, larger count the memory scenario holds once (first repetition only: opening it
   * takes ~40 s per target), on {@link LARGE_IDLE_TARGETS}. `IDLE_STREAMS_LARGE`, default
   * 10000; 0 skips it.
   */
  readonly idleStreamsLarge: number;
  /**
   * Tasks of the sustained run, its cap in time and its concurrency. 400,000 by default: the
   * server's bounded stores (10,000 finished tasks, the idempotency store's 32 MiB) fill only
   * after about 150,000 tasks, so a shorter run ends while memory still grows by design (100,000
   * tasks read 63 % growth over the second half, 400,000 read 2 %).
   */
  readonly sustainedTasks: number;
  readonly sustainedMaxMs: number;
  readonly sustainedConcurrency: number;
  /** Concurrency of the durable scenario's tasks/s cells. `DURABLE_CONC`, default 16. */
  readonly durableConcurrency: number;
  /** Cross-instance latency: tasks, stamped chunks per task, pause before each. `LAT_TASKS` (20), `LAT_K` (50), `LAT_PAUSE_MS` (2). */
  readonly latencyTasks: number;
  readonly latencyK: number;
  readonly latencyPauseMs: number;
  /**
   * The A2A 1.1 long-poll wake-up: tasks, stamped chunks per task, pause before each chunk.
   * `LONGPOLL_TASKS` (5), `LONGPOLL_K` (20), `LONGPOLL_PAUSE_MS` (20: above a loopback GET's
   * round trip, so the next poll is waiting when the next chunk is emitted).
   */
  readonly longPollTasks: number;
  readonly longPollK: number;
  readonly longPollPauseMs: number;
  /** Calls per measured window of the core budget's unary cases. `CORE_CALLS`, default 20000. */
  readonly coreCalls: number;
  /** Pin server to CPU 0 and load to CPU 1 with taskset. `PIN=off` disables. */
  readonly pin: boolean;
  /** Where report.md and results.json go. `OUT_DIR`, default `<repo>/bench-results`. */
  readonly outDir: string;
  /**
   * `CPU_PROF=1`: every server process runs under `node --cpu-prof` and leaves a
   * `.cpuprofile` in `<outDir>/profiles/<server kind>/` when it stops. For
   * finding hot paths; the profiler costs CPU, so figures of such a run are not comparable.
   */
  readonly cpuProfDir: string | undefined;
}

/** A bad knob: one line naming the variable, printed without a stack. */
export class BenchConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BenchConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

function num(env: Env, name: string, fallback: number, { min, max, integer }: { min: number; max: number; integer?: boolean }): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new BenchConfigError(`${name} must be ${integer ? 'an integer' : 'a number'} between ${min} and ${max} (got ${JSON.stringify(raw)})`);
  }
  return value;
}

function list(env: Env, name: string, fallback: readonly number[], max: number): readonly number[] {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const values = raw.split(',').map((s) => Number(s.trim()));
  if (values.some((v) => !Number.isInteger(v) || v < 1 || v > max)) {
    throw new BenchConfigError(`${name} must be a comma list of integers between 1 and ${max} (got ${JSON.stringify(raw)})`);
  }
  return values;
}

function words(env: Env, name: string): string[] {
  const raw = env[name]?.trim();
  if (!raw) return [];
  return raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

function flag(env: Env, name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (['', '0', 'off', 'false'].includes(raw)) return false;
  if (['1', 'on', 'true'].includes(raw)) return true;
  throw new BenchConfigError(`${name} must be 1 or 0 (got ${JSON.stringify(env[name])})`);
}

/** Default output folder: `bench-results/` at the repository root (gitignored). */
export function defaultOutDir(): string {
  // dist/config.js → packages/bench/dist → repository root is three levels up.
  return resolve(__dirname, '..', '..', '..', 'bench-results');
}

/** Reads the knobs from `env` (normally `process.env`). Throws {@link BenchConfigError} on bad values. */
export function loadConfig(env: Env = process.env): BenchConfig {
  const scenarioWords = words(env, 'SCENARIOS');
  const all = scenarioWords.includes('all');
  const scenarios = all
    ? [...SCENARIO_NAMES]
    : scenarioWords.length === 0
      ? [...DEFAULT_SCENARIOS]
      : SCENARIO_NAMES.filter((s) => scenarioWords.some((w) => s.startsWith(w)));
  const unknown = scenarioWords.filter((w) => w !== 'all' && !SCENARIO_NAMES.some((s) => s.startsWith(w)));
  if (unknown.length > 0) throw new BenchConfigError(`SCENARIOS has unknown names ${unknown.join(', ')} (known: ${SCENARIO_NAMES.join(', ')})`);
  const outDir = env.OUT_DIR?.trim() ? resolve(env.OUT_DIR.trim()) : defaultOutDir();
  const pinRaw = (env.PIN ?? 'auto').trim().toLowerCase();
  if (!['auto', 'on', 'off', '1', '0', 'true', 'false'].includes(pinRaw))
    throw new BenchConfigError(`PIN must be auto, on or off (got ${JSON.stringify(env.PIN)})`);
  return {
    reps: num(env, 'REPS', 3, { min: 1, max: 50, integer: true }),
    durationMs: Math.round(num(env, 'DURATION_S', 1.2, { min: 0.2, max: 600 }) * 1000),
    warmupMs: Math.round(num(env, 'WARMUP_S', 0.3, { min: 0, max: 60 }) * 1000),
    serverWarmupMs: Math.round(num(env, 'SERVER_WARMUP_S', 0.5, { min: 0, max: 60 }) * 1000),
    scenarios,
    targets: words(env, 'TARGETS'),
    unaryConcurrency: list(env, 'CONC', [1, 16, 64], 1024),
    streamConcurrency: list(env, 'STREAM_CONC', [1, 16], 1024),
    coreCalls: num(env, 'CORE_CALLS', 20_000, { min: 100, max: 10_000_000, integer: true }),
    streamK: num(env, 'STREAM_K', 100, { min: 1, max: 100_000, integer: true }),
    kList: list(env, 'K_LIST', [10, 100, 1000], 100_000),
    ttfeK: num(env, 'TTFE_K', 10, { min: 1, max: 10_000, integer: true }),
    ttfePauseMs: num(env, 'TTFE_PAUSE_MS', 2, { min: 0, max: 1000 }),
    idleStreams: num(env, 'IDLE_STREAMS', 1000, { min: 1, max: 10_000, integer: true }),
    idleStreamsLarge: num(env, 'IDLE_STREAMS_LARGE', 10_000, { min: 0, max: 10_000, integer: true }),
    sustainedTasks: num(env, 'SUSTAINED_TASKS', 400_000, { min: 1, max: 10_000_000, integer: true }),
    sustainedMaxMs: Math.round(num(env, 'SUSTAINED_MAX_S', 120, { min: 1, max: 3600 }) * 1000),
    sustainedConcurrency: num(env, 'SUSTAINED_CONC', 16, { min: 1, max: 1024, integer: true }),
    durableConcurrency: num(env, 'DURABLE_CONC', 16, { min: 1, max: 1024, integer: true }),
    latencyTasks: num(env, 'LAT_TASKS', 20, { min: 1, max: 10_000, integer: true }),
    latencyK: num(env, 'LAT_K', 50, { min: 1, max: 10_000, integer: true }),
    latencyPauseMs: num(env, 'LAT_PAUSE_MS', 2, { min: 0, max: 1000 }),
    longPollTasks: num(env, 'LONGPOLL_TASKS', 5, { min: 1, max: 10_000, integer: true }),
    longPollK: num(env, 'LONGPOLL_K', 20, { min: 1, max: 10_000, integer: true }),
    longPollPauseMs: num(env, 'LONGPOLL_PAUSE_MS', 20, { min: 1, max: 10_000 }),
    pin: !['off', '0', 'false'].includes(pinRaw),
    outDir,
    cpuProfDir: flag(env, 'CPU_PROF') ? join(outDir, 'profiles') : undefined,
  };
}
