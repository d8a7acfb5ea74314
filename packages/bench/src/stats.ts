/**
 * The little statistics the report needs. Kept separate and pure so the jest test can check
 * it, and so every number in the report is computed the same way.
 */

/**
 * Percentile of an ascending-sorted sample with linear interpolation between the closest
 * ranks (the "R-7" / spreadsheet definition): p = 50 of [1, 2, 3, 4] is 2.5. NaN when empty.
 */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const clamped = Math.min(100, Math.max(0, p));
  const rank = (clamped / 100) * (n - 1);
  const lo = Math.floor(rank);
  const a = sorted[lo] ?? Number.NaN; // 0 <= lo <= hi <= n - 1: both ranks exist
  const b = sorted[Math.ceil(rank)] ?? Number.NaN;
  return a + (b - a) * (rank - lo);
}

/** Median of finite values (NaN and undefined are ignored). NaN when none is left. */
export function median(values: ReadonlyArray<number | undefined>): number {
  const finite = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  return percentile(finite, 50);
}

/** Smallest and largest finite value, or NaN/NaN. */
export function minMax(values: ReadonlyArray<number | undefined>): { min: number; max: number } {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min <= max ? { min, max } : { min: Number.NaN, max: Number.NaN };
}

/**
 * Spread of repeated measurements: (max - min) / median. 0 for one repetition. It says how
 * much to trust a cell on a noisy machine; the report prints it next to every throughput.
 */
export function spread(values: ReadonlyArray<number | undefined>): number {
  const m = median(values);
  const { min, max } = minMax(values);
  if (!Number.isFinite(m) || m === 0) return Number.NaN;
  return (max - min) / m;
}

/** Latency percentiles of one measurement window, in milliseconds. */
export interface LatencySummary {
  readonly count: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

/** Summarizes latency samples given in microseconds into milliseconds. Sorts `samplesUs` in place. */
export function summarizeLatencies(samplesUs: number[]): LatencySummary {
  samplesUs.sort((a, b) => a - b);
  const n = samplesUs.length;
  let sum = 0;
  for (const v of samplesUs) sum += v;
  const ms = (v: number) => v / 1000;
  return {
    count: n,
    p50: ms(percentile(samplesUs, 50)),
    p90: ms(percentile(samplesUs, 90)),
    p99: ms(percentile(samplesUs, 99)),
    max: ms(samplesUs[n - 1] ?? Number.NaN),
    mean: n > 0 ? ms(sum / n) : Number.NaN,
  };
}

/** A ratio over repetitions: median and range, as the report prints it ("0.52 [0.48-0.60]"). */
export interface RatioSummary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly n: number;
}

/** Median and range of per-repetition ratios (non-finite ratios are dropped). */
export function summarizeRatios(ratios: ReadonlyArray<number | undefined>): RatioSummary {
  const finite = ratios.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const { min, max } = minMax(finite);
  return { median: median(finite), min, max, n: finite.length };
}
