import type { CoreBudgetResult } from '../results.js';
import { median } from '../stats.js';
import { TARGETS, type Binding } from '../targets.js';
import type { CellSummary } from './aggregate.js';
import { fmtNum, mdTable } from './format.js';
import type { GoalRow } from './goals.js';

/**
 * What a binding may spend per request beyond the raw transport's echo and the executor's core
 * (issue 27 item 3), µs of server CPU: JSON-RPC, REST and WebSocket decode and encode one JSON
 * body; gRPC A2AService also converts between ProtoJSON-shaped objects and protobuf messages.
 */
export const BINDING_ALLOWANCE_US: Readonly<Partial<Record<Binding, number>>> = { jsonrpc: 15, rest: 15, ws: 15, grpc: 40 };

/** The concurrency the budget is judged at, as the throughput targets. */
export const BUDGET_CONCURRENCY = 16;

/** One binding × answer: what its server spent per request, split into echo, core and the binding's own. */
export interface BindingBudgetRow {
  readonly label: string;
  readonly mode: 'task' | 'message';
  readonly serverUs: number;
  readonly echoUs: number;
  readonly coreUs: number;
  readonly allowanceUs: number;
  /** serverUs - echoUs - coreUs: what the binding (and whatever runs around the core) costs. */
  readonly ownUs: number;
}

/**
 * The binding budget, per `ours` and `bare` target of the unary scenario at
 * {@link BUDGET_CONCURRENCY}: server CPU per request against the ceiling's echo at the same
 * concurrency plus the executor handler's core figure for the same answer (median over
 * repetitions each). Rows need both scenarios (`unary` and `core`) in the run.
 */
export function bindingBudgetRows(cells: readonly CellSummary[], core: CoreBudgetResult | undefined): BindingBudgetRow[] {
  const rows: BindingBudgetRow[] = [];
  for (const target of TARGETS) {
    const allowanceUs = BINDING_ALLOWANCE_US[target.binding];
    if ((target.family !== 'ours' && target.family !== 'bare') || target.session || allowanceUs === undefined) continue;
    const echo = cells.find((c) => c.scenario === 'unary' && c.targetId === target.ceiling && c.concurrency === BUDGET_CONCURRENCY && c.reps > 0);
    for (const mode of ['task', 'message'] as const) {
      const cell = cells.find(
        (c) => c.scenario === 'unary' && c.targetId === target.id && c.mode === mode && c.concurrency === BUDGET_CONCURRENCY && c.reps > 0,
      );
      const coreRow = core?.rows.find((r) => r.handler === 'executor' && r.caseId === mode);
      if (!cell || !echo || !coreRow || coreRow.perUnitUs.length === 0) continue;
      const coreUs = median(coreRow.perUnitUs);
      rows.push({
        label: target.label,
        mode,
        serverUs: cell.cpuUsPerOp,
        echoUs: echo.cpuUsPerOp,
        coreUs,
        allowanceUs,
        ownUs: cell.cpuUsPerOp - echo.cpuUsPerOp - coreUs,
      });
    }
  }
  return rows;
}

/** The budget's goals: the `ours` rows (what `npm start` runs); the bare rows are shown in the section only. */
export function bindingBudgetGoals(rows: readonly BindingBudgetRow[]): GoalRow[] {
  return rows
    .filter((r) => TARGETS.some((t) => t.label === r.label && t.family === 'ours'))
    .map((r) => ({
      goal: `binding budget: SendMessage → ${r.mode === 'task' ? 'Task' : 'Message'}, c=${BUDGET_CONCURRENCY}, server CPU µs/request`,
      target: r.label,
      measured: fmtNum(r.serverUs),
      threshold: `≤ ${fmtNum(r.echoUs + r.coreUs + r.allowanceUs)} (echo ${fmtNum(r.echoUs)} + core ${fmtNum(r.coreUs)} + ${r.allowanceUs})`,
      pass: r.serverUs <= r.echoUs + r.coreUs + r.allowanceUs,
    }));
}

/** The section: every row with its parts, so a miss shows where the time goes. */
export function renderBindingBudget(rows: readonly BindingBudgetRow[]): string[] {
  if (rows.length === 0) return [];
  return [
    `## Binding budget (server CPU µs per request at c=${BUDGET_CONCURRENCY}, medians: the binding's own = server - raw echo - executor core)`,
    '',
    mdTable(
      ['target', 'answer', 'server', 'raw echo', 'executor core', "binding's own", 'allowed own'],
      rows.map((r) => [r.label, r.mode, fmtNum(r.serverUs), fmtNum(r.echoUs), fmtNum(r.coreUs), fmtNum(r.ownUs), `≤ ${r.allowanceUs}`]),
      ['l', 'l', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
  ];
}
