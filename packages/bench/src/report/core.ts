import { CORE_CASES } from '../core/cases.js';
import { ENCODE_CASES, ENCODERS } from '../core/encode-cases.js';
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
  out.push(...renderEncode(result));
  return out;
}

/**
 * The encode table: what turning the core's answer into JSON text costs a JSON binding (not
 * in the budgets above, which stop at the handler's answer), with the generated path and with
 * the direct encoders the bindings use.
 */
function renderEncode(result: CoreBudgetResult): string[] {
  const rows = result.encode ?? [];
  if (rows.length === 0) return [];
  const medianOf = (caseId: string, encoder: string) => {
    const values = rows.find((r) => r.caseId === caseId && r.encoder === encoder)?.perUnitUs ?? [];
    return values.length > 0 ? median(values) : undefined;
  };
  return [
    'ProtoJSON encoding per unit, in the same process (CPU µs, median [min-max]; not part of the budgets above):',
    '',
    mdTable(
      ['encoding', ...ENCODERS.map(([, label]) => label), 'direct / generated'],
      ENCODE_CASES.map((c) => {
        const generated = medianOf(c.id, 'generated');
        const direct = medianOf(c.id, 'direct');
        return [
          c.label,
          ...ENCODERS.map(([id]) => fmtRange(rows.find((r) => r.caseId === c.id && r.encoder === id)?.perUnitUs ?? [])),
          generated !== undefined && generated > 0 && direct !== undefined ? fmtNum(direct / generated) : '-',
        ];
      }),
      ['l', 'r', 'r', 'r'],
    ),
    '',
  ];
}
