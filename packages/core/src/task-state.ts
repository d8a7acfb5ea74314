import { TaskState } from '@a2a-polyglot/model';

const TERMINAL = new Set<TaskState>([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);
const INTERRUPTED = new Set<TaskState>([TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED]);

/** Terminal tasks never change again (spec §7): completed, failed, canceled, rejected. */
export function isTerminal(state: TaskState): boolean {
  return TERMINAL.has(state);
}

/** Interrupted tasks wait for the client: input-required, auth-required. */
export function isInterrupted(state: TaskState): boolean {
  return INTERRUPTED.has(state);
}

/**
 * A state in which a blocking SendMessage returns and a task stream closes
 * (terminal or interrupted; spec §7 "Execution mode" and §11.7).
 */
export function isSettled(state: TaskState): boolean {
  return TERMINAL.has(state) || INTERRUPTED.has(state);
}

/**
 * The task state machine. A task is born SUBMITTED; from any non-terminal state it may move
 * to WORKING, an interrupted state or a terminal state (WORKING → WORKING carries progress
 * messages; an interrupted state may be re-asserted). Nothing leaves a terminal state and
 * nothing returns to SUBMITTED or UNSPECIFIED.
 */
export function canTransition(from: TaskState | undefined, to: TaskState): boolean {
  if (from === undefined) return to === TaskState.TASK_STATE_SUBMITTED;
  if (isTerminal(from)) return false;
  if (to === TaskState.TASK_STATE_SUBMITTED || to === TaskState.TASK_STATE_UNSPECIFIED) return false;
  return to in TaskState;
}
