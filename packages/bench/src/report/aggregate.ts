import { median, spread, summarizeRatios, type RatioSummary } from '../stats.js';
import type { CellResult, IdleMemoryResult } from '../results.js';
import { targetById } from '../targets.js';

/** Per-repetition measures of a cell that the summary reports as medians over repetitions. */
const CELL_MEDIANS = ['opsPerS', 'eventsPerS', 'p50Ms', 'p99Ms', 'ttfeP50Ms', 'ttfeP99Ms', 'cpuUsPerOp', 'cpuUsPerEvent', 'cpuPct'] as const;

/** Per-repetition measures of an idle-memory row that the summary reports as medians over repetitions. */
const IDLE_MEDIANS = ['opened', 'connections', 'idleRssMB', 'idleHeapMB', 'openRssMB', 'openHeapMB', 'rssKBPerStream', 'heapKBPerStream'] as const;

/** The median over `rows` of each field in `keys` (NaN where no finite value). */
function medians<K extends string, T extends Readonly<Record<K, number>>>(rows: readonly T[], keys: readonly K[]): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const key of keys) out[key] = median(rows.map((r) => r[key]));
  return out;
}

/** `items` grouped by `key`, each group non-empty (its first item names the group). */
function groupBy<T>(items: readonly T[], key: (item: T) => string): Array<[T, ...T[]]> {
  const groups = new Map<string, [T, ...T[]]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return [...groups.values()];
}

/** One cell over all repetitions: medians, spread, and back-to-back ratios. */
export interface CellSummary extends Readonly<Record<(typeof CELL_MEDIANS)[number], number>> {
  readonly scenario: string;
  readonly targetId: string;
  readonly label: string;
  readonly family: string;
  readonly binding: string;
  readonly mode: string;
  readonly concurrency: number;
  readonly k?: number;
  /** Repetitions that produced a measurement. */
  readonly reps: number;
  /** Spread of the headline rate (ops/s for unary, events/s for streams). */
  readonly spread: number;
  readonly errors: number;
  readonly eventsPerOp: string;
  readonly checks: readonly string[];
  readonly failures: readonly string[];
  /** Headline rate / the ceiling's, per repetition (same scenario, concurrency, K). */
  readonly vsCeiling?: RatioSummary;
  /** Server CPU per op: target / ceiling (median of per-rep ratios). */
  readonly cpuVsCeiling?: RatioSummary;
  /** Headline rate / the SDK's (ours targets, same binding and mode). */
  readonly vsSdk?: RatioSummary;
}

const key = (c: { scenario: string; targetId: string; mode: string; concurrency: number; k?: number }) =>
  `${c.scenario}|${c.targetId}|${c.mode}|${c.concurrency}|${c.k ?? ''}`;

/** The rate the report compares: events/s for streams, ops/s otherwise. */
export function headline(c: Pick<CellResult, 'mode' | 'opsPerS' | 'eventsPerS'>): number {
  return c.mode === 'stream' ? c.eventsPerS : c.opsPerS;
}

/** Collapses repetitions into summaries, computing every ratio within a repetition first. */
export function summarizeCells(cells: readonly CellResult[]): CellSummary[] {
  const find = (c: CellResult, targetId: string, mode?: string) =>
    cells.find(
      (o) =>
        o.scenario === c.scenario &&
        o.rep === c.rep &&
        o.targetId === targetId &&
        o.concurrency === c.concurrency &&
        o.k === c.k &&
        (mode === undefined || o.mode === mode) &&
        !o.failure,
    );

  const out: CellSummary[] = [];
  for (const list of groupBy(cells, key)) {
    const [first] = list;
    const target = targetById(first.targetId);
    const ok = list.filter((c) => !c.failure && c.ops > 0);
    const ratios = (other: string | undefined, mode: string | undefined, metric: (c: CellResult) => number) => {
      if (!other) return undefined;
      const values = ok.map((c) => {
        const o = find(c, other, mode);
        return o ? metric(c) / metric(o) : NaN;
      });
      const s = summarizeRatios(values);
      return s.n > 0 ? s : undefined;
    };
    const ceilingMode = first.mode === 'stream' ? 'stream' : 'echo';
    const evMin = Math.min(...ok.map((c) => c.eventsMin));
    const evMax = Math.max(...ok.map((c) => c.eventsMax));
    out.push({
      scenario: first.scenario,
      targetId: first.targetId,
      label: target?.label ?? first.targetId,
      family: first.family,
      binding: first.binding,
      mode: first.mode,
      concurrency: first.concurrency,
      k: first.k,
      reps: ok.length,
      ...medians(ok, CELL_MEDIANS),
      spread: spread(ok.map(headline)),
      errors: list.reduce((n, c) => n + c.errors, 0),
      eventsPerOp: ok.length === 0 ? '-' : evMin === evMax ? String(evMin) : `${evMin}-${evMax}`,
      checks: [...new Set(list.map((c) => c.check).filter((c) => c !== 'ok' && c !== 'not measured'))],
      failures: [...new Set(list.map((c) => c.failure).filter((f): f is string => Boolean(f)))],
      vsCeiling: ratios(target?.ceiling, ceilingMode, headline),
      cpuVsCeiling: ratios(target?.ceiling, ceilingMode, (c) => c.cpuUsPerOp),
      vsSdk: target?.sdk ? ratios(target.sdk, first.mode, headline) : undefined,
    });
  }
  return out;
}

/** Idle-memory results over repetitions. */
export interface IdleSummary extends Readonly<Record<(typeof IDLE_MEDIANS)[number], number>> {
  readonly targetId: string;
  /** Streams held open (the rows of each count are summarised apart). */
  readonly streams: number;
  readonly label: string;
  readonly binding: string;
  readonly reps: number;
  readonly spread: number;
  /** RSS per stream / raw SSE's, per repetition. */
  readonly vsRawSse?: RatioSummary;
  readonly failures: readonly string[];
}

/** Collapses idle-memory repetitions per stream count; ratios are against raw node:http SSE of the same repetition and count. */
export function summarizeIdle(rows: readonly IdleMemoryResult[]): IdleSummary[] {
  return groupBy(rows, (r) => `${r.targetId}|${r.streams}`).map((list) => {
    const [{ targetId: id, binding, streams }] = list;
    const ok = list.filter((r) => !r.failure && r.opened > 0);
    const ratios = ok.map((r) => {
      const raw = rows.find((o) => o.targetId === 'raw-http' && o.rep === r.rep && o.streams === r.streams && !o.failure);
      return raw ? r.rssKBPerStream / raw.rssKBPerStream : NaN;
    });
    const s = summarizeRatios(ratios);
    return {
      targetId: id,
      streams,
      label: targetById(id)?.label ?? id,
      binding,
      reps: ok.length,
      ...medians(ok, IDLE_MEDIANS),
      spread: spread(ok.map((r) => r.rssKBPerStream)),
      vsRawSse: id !== 'raw-http' && s.n > 0 ? s : undefined,
      failures: [...new Set(list.map((r) => r.failure).filter((f): f is string => Boolean(f)))],
    };
  });
}
