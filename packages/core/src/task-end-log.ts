import { TaskState } from '@a2a-polyglot/model';
import { logsAt } from './lazy-logger.js';
import type { Logger } from './logger.js';

/**
 * The one `info` line of a run that ended: which task (`taskId`, with the call's `binding`
 * and `reqId`, from the run's logger), which `agent`, the `state` the task was left in and
 * how long the run took (`durationMs`). One line per finished task (or per follow-up run of
 * an interrupted one), so a session's log shows what happened without debug; nothing is
 * built when info is off. A run that answered with a message (no task) writes none.
 */
export function logTaskEnd(logger: Logger, agent: string, state: TaskState | undefined, startedAt: number): void {
  if (state === undefined || !logsAt(logger, 'info')) return;
  const name = stateName(state);
  logger.info({ agent, state: name, durationMs: Math.round(performance.now() - startedAt) }, `task ${name}`);
}

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`, as the A2A v0.3 wire and people spell it. */
function stateName(state: TaskState): string {
  return (TaskState[state] ?? String(state))
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');
}
