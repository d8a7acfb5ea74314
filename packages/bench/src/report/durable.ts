import type { DurableResult } from '../results.js';
import { median, spread, summarizeRatios } from '../stats.js';
import { fmtInt, fmtNum, fmtPct, fmtRatio, mdTable } from './format.js';

/**
 * The durable scenario's section: tasks/s per storage (median over repetitions, spread), the
 * durable / in-memory ratio taken within each repetition (the two ran back to back), and the
 * cross-instance event latency. Empty when the scenario did not run.
 */
export function renderDurable(result: DurableResult | undefined): string[] {
  if (!result) return [];
  const out: string[] = [`## Durable storage: SendMessage → Task at c=${result.concurrency}, in memory vs PostgreSQL + Redis (ours JSON-RPC)`, ''];
  if (result.throughput.length > 0) {
    const rows = (['memory', 'durable'] as const).map((storage) => {
      const list = result.throughput.filter((t) => t.storage === storage);
      const rates = list.map((t) => t.tasksPerS);
      const ratio = storage === 'memory' ? '1' : fmtRatio(summarizeRatios(list.map((d) => ratioInRep(result, d.rep))));
      const checks = [...new Set(list.map((t) => t.check).filter((c) => c !== 'ok'))];
      const errors = list.reduce((n, t) => n + t.errors, 0);
      const notes = [...checks.map((c) => `check: ${c}`), ...(errors > 0 ? [`${errors} errors`] : [])].join('; ');
      return [
        storage === 'memory' ? 'in memory' : 'PostgreSQL + Redis',
        fmtInt(median(rates)),
        fmtPct(spread(rates)),
        fmtNum(median(list.map((t) => t.p50Ms))),
        fmtNum(median(list.map((t) => t.p99Ms))),
        fmtNum(median(list.map((t) => t.cpuUsPerOp))),
        ratio,
        notes,
      ];
    });
    out.push(mdTable(['storage', 'tasks/s', 'spread', 'p50 ms', 'p99 ms', 'srv CPU µs/op', 'vs in memory', 'notes'], rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l']));
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

function ratioInRep(result: DurableResult, rep: number): number | undefined {
  const memory = result.throughput.find((t) => t.rep === rep && t.storage === 'memory');
  const durable = result.throughput.find((t) => t.rep === rep && t.storage === 'durable');
  return memory && durable && memory.tasksPerS > 0 ? durable.tasksPerS / memory.tasksPerS : undefined;
}
