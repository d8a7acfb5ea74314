import { join } from 'node:path';
import { spawnChild } from '../child.js';
import type { CoreBudgetChildOptions, CoreBudgetChildResult } from '../core/core-main.js';
import type { RunContext } from '../orchestrator/context.js';
import type { CoreBudgetResult } from '../results.js';

/** Generous: 3 × 2 handlers × 3 cases of ~1 s CPU each, on a loaded machine. */
const CORE_TIMEOUT_MS = 300_000;

/**
 * The core budget (issue 14 item 1): the protocol work of one request with no socket, in a
 * child process of its own (fresh heap, pinned to the server CPU like every server), measured
 * by process CPU time per call.
 */
export async function runCoreBudget(ctx: RunContext): Promise<CoreBudgetResult> {
  const options: CoreBudgetChildOptions = { calls: ctx.config.coreCalls, warmupCalls: Math.ceil(ctx.config.coreCalls / 2), reps: ctx.config.reps };
  const child = spawnChild({
    name: 'core budget',
    script: join(__dirname, '..', 'core', 'core-main.js'),
    args: [JSON.stringify(options)],
    nodeArgs: ['--expose-gc'],
    role: 'server',
    pinning: ctx.pinning,
  });
  try {
    const result = await child.ipc.once<CoreBudgetChildResult>('result', CORE_TIMEOUT_MS);
    return { ...result, calls: options.calls };
  } catch (error) {
    return { rows: [], calls: options.calls, failure: (error as Error).message };
  } finally {
    await child.stop(1000);
  }
}
