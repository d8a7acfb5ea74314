import type { CoreBudgetChildRow, EncodeChildRow } from './core/core-main.js';
import type { BenchConfig, ScenarioName } from './config.js';
import type { Binding, Family } from './targets.js';

/** One measured cell of one repetition (a row of results.json). */
export interface CellResult {
  readonly scenario: ScenarioName;
  readonly rep: number;
  readonly targetId: string;
  readonly family: Family;
  readonly binding: Binding;
  /** message | task | echo (ceiling unary) | stream */
  readonly mode: string;
  readonly concurrency: number;
  readonly k?: number;
  readonly pauseMs?: number;
  /** Set when the cell could not be measured (server failed, load crashed). */
  readonly failure?: string;
  readonly ops: number;
  readonly errors: number;
  readonly events: number;
  readonly windowMs: number;
  readonly opsPerS: number;
  readonly eventsPerS: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly ttfeP50Ms: number;
  readonly ttfeP99Ms: number;
  /** Server CPU time per operation / per event over the window, µs (NaN without /proc). */
  readonly cpuUsPerOp: number;
  readonly cpuUsPerEvent: number;
  /** Server CPU time / window wall time, percent of one core. */
  readonly cpuPct: number;
  readonly eventsMin: number;
  readonly eventsMax: number;
  readonly check: string;
  readonly firstError?: string;
}

/** One target of the idle-streams memory scenario, one repetition. */
export interface IdleMemoryResult {
  readonly rep: number;
  readonly targetId: string;
  readonly family: Family;
  readonly binding: Binding;
  readonly streams: number;
  readonly opened: number;
  readonly failed: number;
  readonly connections: number;
  readonly openMs: number;
  readonly idleRssMB: number;
  readonly idleHeapMB: number;
  readonly openRssMB: number;
  readonly openHeapMB: number;
  readonly rssKBPerStream: number;
  readonly heapKBPerStream: number;
  readonly failure?: string;
  readonly firstError?: string;
}

/** One memory sample of the sustained run. */
export interface SustainedSample {
  readonly tasks: number;
  readonly elapsedS: number;
  readonly rssMB: number;
  readonly heapMB: number;
}

/** The sustained run (once per run, not repeated). */
export interface SustainedResult {
  readonly targetId: string;
  readonly concurrency: number;
  readonly tasksWanted: number;
  readonly tasksDone: number;
  readonly errors: number;
  readonly elapsedS: number;
  readonly tasksPerS: number;
  readonly startRssMB: number;
  readonly samples: readonly SustainedSample[];
  /** After a forced GC at the end. */
  readonly finalRssMB: number;
  readonly finalHeapMB: number;
  /** RSS growth over the second half of the run ((last - middle) / middle). */
  readonly secondHalfGrowth: number;
  readonly check: string;
  readonly failure?: string;
}

/** The storages the durable scenario compares: in memory, one SQLite file, PostgreSQL + Redis. */
export type DurableStorage = 'memory' | 'sqlite' | 'postgres';

/** Tasks/s of one storage in one repetition of the durable scenario. */
export interface DurableThroughput {
  readonly rep: number;
  readonly storage: DurableStorage;
  readonly tasksPerS: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly cpuUsPerOp: number;
  readonly errors: number;
  readonly check: string;
}

/** The durable scenario: in memory vs SQLite vs PostgreSQL + Redis, and the cross-instance event latency. */
export interface DurableResult {
  readonly concurrency: number;
  readonly throughput: readonly DurableThroughput[];
  readonly latency?: {
    readonly tasks: number;
    readonly k: number;
    readonly pauseMs: number;
    readonly events: number;
    /** Stamped events that never arrived on instance B. */
    readonly lost: number;
    readonly p50Ms: number;
    readonly p99Ms: number;
    readonly maxMs: number;
  };
  readonly failure?: string;
}

/**
 * The A2A 1.1 long-poll wake-up: how long after an event a GetTask long poll waiting on the
 * generation before it answered (receive time − the event's emit time, one machine clock).
 */
export interface LongPollResult {
  readonly targetId: string;
  readonly tasks: number;
  readonly k: number;
  readonly pauseMs: number;
  /** Polls answered by exactly the next event (the ones measured). */
  readonly wakes: number;
  /** Polls that found the task more than one event ahead (the poll came late; not measured). */
  readonly late: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly failure?: string;
}

/** The core budget: CPU per unit of every core case, on the bare core and on the executor's handler. */
export interface CoreBudgetResult {
  /** Calls per measured window of the unary cases. */
  readonly calls: number;
  readonly rows: readonly CoreBudgetChildRow[];
  /** ProtoJSON encoding per stream event and per Task answer, generated path vs direct encoders. */
  readonly encode?: readonly EncodeChildRow[];
  readonly failure?: string;
}

/** Everything one `npm run bench` produced: written as results.json. */
export interface BenchRun {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly elapsedS: number;
  readonly machine: { readonly cpuModel: string; readonly cpus: number; readonly memGiB: number; readonly node: string; readonly platform: string };
  readonly versions: Readonly<Record<string, string>>;
  readonly config: BenchConfig;
  readonly pinning: string;
  readonly notices: readonly string[];
  readonly cells: readonly CellResult[];
  readonly idle: readonly IdleMemoryResult[];
  readonly sustained?: SustainedResult;
  readonly durable?: DurableResult;
  readonly longPoll?: LongPollResult;
  readonly core?: CoreBudgetResult;
}
