import { CORE_CASES } from '../core/cases.js';
import type { CoreBudgetResult } from '../results.js';
import { median } from '../stats.js';
import type { GoalRow } from './goals.js';
import { fmtInt, fmtNum, mdTable } from './format.js';

const HANDLERS = [
  ['core', 'bare core (in-memory store, no observer)'],
  ['executor', "executor's handler (metrics observer, timed store: `npm start`)"],
] as const;

/** "12.3 [11.0-14.1]": median and range of a case's per-repetition figures. */
function fmtRange(values: readonly number[]): string {
  if (values.length === 0) return '-';
  const m = fmtNum(median(values));
  return values.length > 1 ? `${m} [${fmtNum(Math.min(...values))}-${fmtNum(Math.max(...values))}]` : m;
}

/**
 * The core budget's goals: the executor's handler against each budget, on the median of its
 * repetitions (the bare core is shown in the section for comparison, not judged).
 */
export function coreGoals(result: CoreBudgetResult | undefined): GoalRow[] {
  return CORE_CASES.map((c) => {
    const row = result?.rows.find((r) => r.handler === 'executor' && r.caseId === c.id);
    return {
      goal: `core budget: ${c.label}, CPU µs`,
      target: 'executor handler, in process',
      measured: row ? fmtRange(row.perUnitUs) : 'not measured',
      threshold: `≤ ${c.budgetUs}`,
      pass: row ? median(row.perUnitUs) <= c.budgetUs : undefined,
    };
  });
}

/** The core budget's section: every case on both handlers, CPU µs per unit, median [min-max]. */
export function renderCore(result: CoreBudgetResult | undefined): string[] {
  if (!result) return [];
  const out = [
    `## Core budget: protocol work in process, no sockets (CPU µs per unit, median [min-max] over repetitions of ${fmtInt(result.calls)} calls)`,
    '',
  ];
  if (result.failure) out.push(`Failed: ${result.failure}`, '');
  if (result.rows.length === 0) return out;
  out.push(
    mdTable(
      ['case', 'budget', ...HANDLERS.map(([, label]) => label)],
      CORE_CASES.map((c) => [
        c.label,
        `≤ ${c.budgetUs}`,
        ...HANDLERS.map(([id]) => fmtRange(result.rows.find((r) => r.handler === id && r.caseId === c.id)?.perUnitUs ?? [])),
      ]),
      ['l', 'r', 'r', 'r'],
    ),
  );
  out.push('');
  return out;
}
