import type { BenchRun } from '../results.js';
import { bindingBudgetGoals, bindingBudgetRows, renderBindingBudget } from './binding-budget.js';
import { coreGoals, renderCore } from './core.js';
import { renderDurable } from './durable.js';
import { renderLongPoll } from './long-poll.js';
import { summarizeCells, summarizeIdle, type CellSummary } from './aggregate.js';
import { fmtInt, fmtNum, fmtPct, fmtRatio, mdTable } from './format.js';
import { evaluateGoals } from './goals.js';
import { TARGETS } from '../targets.js';

const passText = (p: boolean | undefined) => (p === undefined ? '-' : p ? 'PASS' : 'FAIL');

function notes(s: CellSummary): string {
  const parts: string[] = [];
  if (s.errors > 0) parts.push(`${s.errors} errors`);
  parts.push(...s.checks.map((c) => `check: ${c}`));
  parts.push(...s.failures.map((f) => `failed: ${f}`));
  return parts.join('; ');
}

function byOrder(a: CellSummary, b: CellSummary): number {
  return a.concurrency - b.concurrency || (a.k ?? 0) - (b.k ?? 0);
}

/**
 * Renders the markdown report: the goals as pass/fail, then one table per scenario with
 * medians over repetitions, spread, and back-to-back ratios. Pure: tested with fixed input.
 */
export function renderReport(run: BenchRun): string {
  const cells = summarizeCells(run.cells);
  const idle = summarizeIdle(run.idle);
  const cfg = run.config;
  const out: string[] = [];
  out.push('# A2A Polyglot benchmark');
  out.push('');
  out.push(
    `${run.startedAt} · ${run.elapsedS.toFixed(0)} s · ${run.machine.cpus} × ${run.machine.cpuModel}, ${run.machine.memGiB} GiB · Node ${run.machine.node} · ${Object.entries(
      run.versions,
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  out.push('');
  out.push(
    `Pinning: ${run.pinning}. Reps ${cfg.reps}, window ${cfg.durationMs / 1000} s after ${cfg.warmupMs / 1000} s warm-up (fresh servers: +${cfg.serverWarmupMs / 1000} s). ` +
      'Cells are medians over repetitions; "spread" = (max - min) / median of the rate; ratios are computed within each repetition (back to back) and given as median [min-max]. ' +
      'See packages/bench/README.md for the method and every column.',
  );
  out.push('');

  out.push('## Targets (pass/fail, informational)');
  out.push('');
  const budget = bindingBudgetRows(cells, run.core);
  const goals = [...coreGoals(run.core), ...bindingBudgetGoals(budget), ...evaluateGoals(cells, idle, run.sustained, cfg.streamK, run.longPoll)];
  const measurable = goals.filter((g) => !g.pending);
  out.push(
    mdTable(
      ['goal', 'target', 'measured', 'threshold', 'result'],
      measurable.map((g) => [g.goal, g.target, g.measured, g.threshold, passText(g.pass)]),
      ['l', 'l', 'r', 'r', 'l'],
    ),
  );
  out.push('');
  const pending = [...new Map(goals.flatMap((g) => (g.pending ? [[g.target, g.pending] as const] : []))).entries()];
  if (pending.length > 0) {
    out.push(`Not measurable yet (their goals are not shown): ${pending.map(([t, why]) => `${t} (${why})`).join('; ')}.`);
    out.push('');
  }

  out.push(...renderCore(run.core));
  out.push(...renderBindingBudget(budget));

  const unary = cells.filter((c) => c.scenario === 'unary').sort(byOrder);
  if (unary.length > 0) {
    out.push('## Unary SendMessage (HTTP/1.1 keep-alive connections; gRPC: calls in flight on one HTTP/2 connection)');
    out.push('');
    out.push(
      mdTable(
        [
          'target',
          'answer',
          'c',
          'req/s',
          'spread',
          'p50 ms',
          'p99 ms',
          'srv CPU µs/op',
          'srv CPU %',
          'vs ceiling',
          'CPU/op vs ceiling',
          'ours / SDK',
          'notes',
        ],
        unary.map((s) => [
          s.label,
          s.mode,
          String(s.concurrency),
          fmtInt(s.opsPerS),
          fmtPct(s.spread),
          fmtNum(s.p50Ms),
          fmtNum(s.p99Ms),
          fmtNum(s.cpuUsPerOp),
          fmtNum(s.cpuPct),
          s.family === 'ceiling' ? '(ceiling)' : fmtRatio(s.vsCeiling),
          s.family === 'ceiling' ? '1' : fmtRatio(s.cpuVsCeiling),
          fmtRatio(s.vsSdk),
          notes(s),
        ]),
        ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
      ),
    );
    out.push('');
  }

  const stream = cells.filter((c) => c.scenario === 'stream').sort(byOrder);
  if (stream.length > 0) {
    out.push(`## Streaming: K=${cfg.streamK} chunks (K + 3 events per stream), one op = one whole stream`);
    out.push('');
    out.push(
      mdTable(
        [
          'target',
          'streams',
          'events/s',
          'spread',
          'streams/s',
          'stream p50 ms',
          'stream p99 ms',
          '1st event p50 ms',
          'srv CPU µs/event',
          'srv CPU %',
          'events/op',
          'vs raw',
          'ours / SDK',
          'notes',
        ],
        stream.map((s) => [
          s.label,
          String(s.concurrency),
          fmtInt(s.eventsPerS),
          fmtPct(s.spread),
          fmtNum(s.opsPerS),
          fmtNum(s.p50Ms),
          fmtNum(s.p99Ms),
          fmtNum(s.ttfeP50Ms),
          fmtNum(s.cpuUsPerEvent),
          fmtNum(s.cpuPct),
          s.eventsPerOp,
          s.family === 'ceiling' ? '(ceiling)' : fmtRatio(s.vsCeiling),
          fmtRatio(s.vsSdk),
          notes(s),
        ]),
        ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
      ),
    );
    out.push('');
  }

  const order = (id: string) => TARGETS.findIndex((t) => t.id === id);
  const kscale = cells.filter((c) => c.scenario === 'kscale').sort((a, b) => order(a.targetId) - order(b.targetId) || (a.k ?? 0) - (b.k ?? 0));
  if (kscale.length > 0) {
    out.push('## Cost per stream as K grows (1 client)');
    out.push('');
    out.push('"growth" = CPU per stream divided by that at the previous K, over the K ratio: 1.0 means linear in K, above 1 means worse than linear.');
    out.push('');
    out.push(
      mdTable(
        ['target', 'K', 'stream p50 ms', 'srv CPU µs/stream', 'srv CPU µs/event', 'growth', 'events/s', 'vs raw', 'notes'],
        kscale.map((s, i) => {
          const prev = kscale[i - 1];
          const growth = prev && prev.targetId === s.targetId && prev.k && s.k ? s.cpuUsPerOp / prev.cpuUsPerOp / (s.k / prev.k) : NaN;
          return [
            s.label,
            String(s.k ?? '-'),
            fmtNum(s.p50Ms),
            fmtNum(s.cpuUsPerOp),
            fmtNum(s.cpuUsPerEvent),
            fmtNum(growth),
            fmtInt(s.eventsPerS),
            s.family === 'ceiling' ? '(ceiling)' : fmtRatio(s.vsCeiling),
            notes(s),
          ];
        }),
        ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
      ),
    );
    out.push('');
  }

  const ttfe = cells.filter((c) => c.scenario === 'ttfe');
  if (ttfe.length > 0) {
    out.push(`## Time to first event: agent pausing ${cfg.ttfePauseMs} ms before each of ${cfg.ttfeK} chunks (1 client)`);
    out.push('');
    out.push(
      mdTable(
        ['target', '1st event p50 ms', '1st event p99 ms', 'stream p50 ms', 'streams/s', 'notes'],
        ttfe.map((s) => [s.label, fmtNum(s.ttfeP50Ms), fmtNum(s.ttfeP99Ms), fmtNum(s.p50Ms), fmtNum(s.opsPerS), notes(s)]),
        ['l', 'r', 'r', 'r', 'r', 'l'],
      ),
    );
    out.push('');
  }

  for (const streams of [...new Set(idle.map((s) => s.streams))].sort((x, y) => x - y)) {
    const held = idle.filter((s) => s.streams === streams);
    const once = streams === cfg.idleStreams ? '' : ', first repetition only';
    out.push(`## Memory: ${streams.toLocaleString('en-US')} open idle streams (warmed-up server, after forced GC${once})`);
    out.push('');
    out.push('SSE and ws: one TCP connection per stream; gRPC: streams share HTTP/2 connections ("conns").');
    out.push('');
    out.push(
      mdTable(
        [
          'target',
          'open',
          'conns',
          'idle RSS MB',
          'idle heap MB',
          'RSS MB open',
          'heap MB open',
          'RSS KB/stream',
          'heap KB/stream',
          'spread',
          'RSS/stream vs raw SSE',
          'notes',
        ],
        held.map((s) => [
          s.label,
          fmtInt(s.opened),
          fmtInt(s.connections),
          fmtNum(s.idleRssMB),
          fmtNum(s.idleHeapMB),
          fmtNum(s.openRssMB),
          fmtNum(s.openHeapMB),
          fmtNum(s.rssKBPerStream),
          fmtNum(s.heapKBPerStream),
          fmtPct(s.spread),
          s.targetId === 'raw-http' ? '(baseline)' : fmtRatio(s.vsRawSse),
          s.failures.map((f) => `failed: ${f}`).join('; '),
        ]),
        ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
      ),
    );
    out.push('');
  }

  const sus = run.sustained;
  if (sus) {
    out.push(`## Sustained run: ${sus.tasksWanted.toLocaleString('en-US')} tasks, ${sus.targetId}, c=${sus.concurrency}`);
    out.push('');
    if (sus.failure) out.push(`Not measured: ${sus.failure}`);
    else {
      out.push(
        `${sus.tasksDone.toLocaleString('en-US')} tasks in ${sus.elapsedS.toFixed(1)} s (${fmtInt(sus.tasksPerS)} tasks/s, ${sus.errors} errors, check: ${sus.check}). ` +
          `RSS ${fmtNum(sus.startRssMB)} MB at start, ${fmtNum(sus.finalRssMB)} MB after the run and a forced GC (heap ${fmtNum(sus.finalHeapMB)} MB); ` +
          `growth over the second half: ${fmtPct(sus.secondHalfGrowth)}.`,
      );
      out.push('');
      const step = Math.max(1, Math.ceil(sus.samples.length / 12));
      const picked = sus.samples.filter((_, i) => i % step === 0 || i === sus.samples.length - 1);
      out.push(
        mdTable(
          ['tasks done', 'elapsed s', 'RSS MB', 'heap MB'],
          picked.map((s) => [fmtInt(s.tasks), fmtNum(s.elapsedS), fmtNum(s.rssMB), fmtNum(s.heapMB)]),
        ),
      );
    }
    out.push('');
  }

  out.push(...renderLongPoll(run.longPoll));
  out.push(...renderDurable(run.durable));

  if (run.notices.length > 0) {
    out.push('## Notices');
    out.push('');
    for (const n of run.notices) out.push(`- ${n}`);
    out.push('');
  }
  return out.join('\n');
}
