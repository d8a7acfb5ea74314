import type { DurableResult, DurableStorage, DurableThroughput } from '../results.js';
import { median, minMax, summarizeRatios } from '../stats.js';
import { fmtInt, fmtNum, fmtRatio, mdTable } from './format.js';

/** Row labels, in the order the table lists the storages. */
const STORAGE_LABELS: ReadonlyArray<readonly [DurableStorage, string]> = [
  ['memory', 'in memory'],
  ['sqlite', 'SQLite'],
  ['postgres', 'PostgreSQL + Redis'],
];

/**
 * The durable scenario's section: per storage, tasks/s and server CPU per task (median over
 * repetitions with min–max), latency, and tasks/s relative to in memory taken within each
 * repetition (the storages ran back to back). Then the cross-instance event latency. Empty
 * when the scenario did not run.
 */
export function renderDurable(result: DurableResult | undefined): string[] {
  if (!result) return [];
  const out: string[] = [`## Durable storage: SendMessage → Task at c=${result.concurrency}, in memory vs SQLite vs PostgreSQL + Redis (ours JSON-RPC)`, ''];
  const rows = STORAGE_LABELS.flatMap(([storage, label]) => {
    const list = result.throughput.filter((t) => t.storage === storage);
    if (list.length === 0) return [];
    const checks = [...new Set(list.map((t) => t.check).filter((c) => c !== 'ok'))];
    const errors = list.reduce((n, t) => n + t.errors, 0);
    const notes = [...checks.map((c) => `check: ${c}`), ...(errors > 0 ? [`${errors} errors`] : [])].join('; ');
    const ratio = storage === 'memory' ? '1' : fmtRatio(summarizeRatios(list.map((d) => ratioInRep(result, d))));
    return [
      [
        label,
        fmtInt(median(list.map((t) => t.tasksPerS))),
        fmtRange(
          list.map((t) => t.tasksPerS),
          fmtInt,
        ),
        fmtNum(median(list.map((t) => t.cpuUsPerOp))),
        fmtRange(
          list.map((t) => t.cpuUsPerOp),
          fmtNum,
        ),
        fmtNum(median(list.map((t) => t.p50Ms))),
        fmtNum(median(list.map((t) => t.p99Ms))),
        ratio,
        notes,
      ],
    ];
  });
  if (rows.length > 0) {
    out.push(
      mdTable(['storage', 'tasks/s', 'min–max', 'srv CPU µs/task', 'min–max', 'p50 ms', 'p99 ms', 'tasks/s vs in memory', 'notes'], rows, [
        'l',
        'r',
        'r',
        'r',
        'r',
        'r',
        'r',
        'r',
        'l',
      ]),
    );
    out.push('');
  }
  const lat = result.latency;
  if (lat) {
    out.push(
      `Cross-instance event latency (event emitted on instance A, received by a SubscribeToTask SSE stream on instance B; ` +
        `${lat.tasks} tasks × ${lat.k} chunks, ${lat.pauseMs} ms apart): ` +
        `p50 **${fmtNum(lat.p50Ms)} ms**, p99 **${fmtNum(lat.p99Ms)} ms**, max ${fmtNum(lat.maxMs)} ms over ${fmtInt(lat.events)} events` +
        `${lat.lost > 0 ? ` (${lat.lost} did not arrive)` : ''}.`,
    );
    out.push('');
  }
  if (result.failure) {
    out.push(`Not fully measured: ${result.failure}`);
    out.push('');
  }
  return out;
}

/** `min–max` of the repetitions, or `-` with fewer than two. */
function fmtRange(values: readonly number[], fmt: (v: number) => string): string {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length < 2) return '-';
  const { min, max } = minMax(finite);
  return `${fmt(min)}–${fmt(max)}`;
}

/** tasks/s of `cell` ÷ in-memory tasks/s of the same repetition. */
function ratioInRep(result: DurableResult, cell: DurableThroughput): number | undefined {
  const memory = result.throughput.find((t) => t.rep === cell.rep && t.storage === 'memory');
  return memory && memory.tasksPerS > 0 ? cell.tasksPerS / memory.tasksPerS : undefined;
}
