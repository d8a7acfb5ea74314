import type { LongPollResult, SustainedResult } from '../results.js';
import type { RatioSummary } from '../stats.js';
import { TARGETS, type Target } from '../targets.js';
import type { CellSummary, IdleSummary } from './aggregate.js';
import { fmtNum, fmtPct, fmtRatio } from './format.js';
import { LONG_POLL_WAKE_GOAL_MS } from './long-poll.js';

/** One row of the goals table: shown as pass/fail, never asserted. */
export interface GoalRow {
  readonly goal: string;
  readonly target: string;
  readonly measured: string;
  readonly threshold: string;
  /** undefined = not measured. */
  readonly pass: boolean | undefined;
  /** Why the target cannot be measured yet (it has not landed). */
  readonly pending?: string;
}

/** RSS growth over the second half of the sustained run that still counts as "levelled off". */
export const LEVEL_OFF_GROWTH = 0.1;

const ours = (bindings: readonly string[]) => TARGETS.filter((t) => t.family === 'ours' && bindings.includes(t.binding));

function ratioGoal(goal: string, target: Target, ratio: RatioSummary | undefined, threshold: number): GoalRow {
  const pending = target.pending ? `not measured: ${target.pending}` : 'not measured';
  return {
    goal,
    target: target.label,
    measured: ratio ? fmtRatio(ratio) : pending,
    threshold: `≥ ${threshold}`,
    pass: ratio ? ratio.median >= threshold : undefined,
    pending: target.pending,
  };
}

/**
 * The issue's performance targets, evaluated on medians of back-to-back ratios (and on
 * medians for latency and memory). Targets not measured in this run show as such.
 */
export function evaluateGoals(
  cells: readonly CellSummary[],
  idle: readonly IdleSummary[],
  sustained: SustainedResult | undefined,
  streamK: number,
  longPoll?: LongPollResult,
): GoalRow[] {
  const rows: GoalRow[] = [];
  const cell = (scenario: string, id: string, mode: string, c: number, k?: number) =>
    cells.find((s) => s.scenario === scenario && s.targetId === id && s.mode === mode && s.concurrency === c && (k === undefined || s.k === k) && s.reps > 0);

  for (const t of ours(['jsonrpc', 'rest', 'ws', 'grpc'])) {
    const threshold = t.binding === 'grpc' ? 0.8 : 0.5;
    rows.push(ratioGoal('unary SendMessage → Task, c=16, req/s vs ceiling', t, cell('unary', t.id, 'task', 16)?.vsCeiling, threshold));
  }
  for (const t of ours(['jsonrpc', 'rest', 'ws', 'grpc']))
    rows.push(
      ratioGoal('unary SendMessage → Message, c=16, req/s vs ceiling', t, cell('unary', t.id, 'message', 16)?.vsCeiling, t.binding === 'grpc' ? 0.9 : 0.6),
    );
  for (const c of [1, 16])
    for (const t of ours(['jsonrpc', 'rest', 'ws', 'grpc']))
      rows.push(
        ratioGoal(`streaming K=${streamK}, ${c} client${c > 1 ? 's' : ''}, events/s vs raw`, t, cell('stream', t.id, 'stream', c, streamK)?.vsCeiling, 0.6),
      );
  for (const t of ours(['jsonrpc', 'rest', 'ws', 'grpc'])) {
    const s = cells.find((x) => x.scenario === 'ttfe' && x.targetId === t.id && x.reps > 0);
    rows.push({
      goal: 'time to first event p50 (pausing agent, c=1)',
      target: t.label,
      measured: s ? `${fmtNum(s.ttfeP50Ms)} ms` : t.pending ? `not measured: ${t.pending}` : 'not measured',
      threshold: '≤ 1 ms',
      pass: s ? s.ttfeP50Ms <= 1 : undefined,
      pending: t.pending,
    });
  }
  // One row set per stream count held (the large count covers fewer targets: the others show "not measured").
  const counts = [...new Set(idle.map((x) => x.streams))].sort((a, b) => a - b);
  for (const streams of counts.length > 0 ? counts : [undefined]) {
    for (const t of ours(['jsonrpc', 'rest', 'ws', 'grpc'])) {
      const s = idle.find((x) => x.targetId === t.id && x.streams === streams && x.reps > 0);
      if (streams !== undefined && streams !== counts[0] && !s) continue;
      rows.push({
        goal: `RSS per open idle stream vs raw node:http SSE${streams === undefined ? '' : ` (${streams.toLocaleString('en-US')} streams)`}`,
        target: t.label,
        measured: s?.vsRawSse ? `${fmtRatio(s.vsRawSse)} (${fmtNum(s.rssKBPerStream)} KB)` : t.pending ? `not measured: ${t.pending}` : 'not measured',
        threshold: '≤ 1.3',
        pass: s?.vsRawSse ? s.vsRawSse.median <= 1.3 : undefined,
        pending: t.pending,
      });
    }
  }
  const sus = sustained && !sustained.failure ? sustained : undefined;
  rows.push({
    goal: 'sustained run: RSS levels off (growth over the second half)',
    target: TARGETS.find((t) => t.id === (sustained?.targetId ?? 'ours-jsonrpc'))?.label ?? 'ours JSON-RPC',
    measured: sus ? `${fmtPct(sus.secondHalfGrowth)} over ${sus.tasksDone.toLocaleString('en-US')} tasks` : 'not measured',
    threshold: `≤ ${fmtPct(LEVEL_OFF_GROWTH)}`,
    pass: sus ? sus.secondHalfGrowth <= LEVEL_OFF_GROWTH : undefined,
  });
  const poll = longPoll && !longPoll.failure && longPoll.wakes > 0 ? longPoll : undefined;
  rows.push({
    goal: 'A2A 1.1 long poll answered after the next event, p50',
    target: TARGETS.find((t) => t.id === (longPoll?.targetId ?? 'ours-rest'))?.label ?? 'ours REST',
    measured: poll ? `${fmtNum(poll.p50Ms)} ms` : 'not measured',
    threshold: `≤ ${LONG_POLL_WAKE_GOAL_MS} ms`,
    pass: poll ? poll.p50Ms <= LONG_POLL_WAKE_GOAL_MS : undefined,
  });
  return rows;
}
