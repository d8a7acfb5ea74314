import { TaskState } from '@a2a-polyglot/model';
import { isInterrupted, isTerminal } from '../src/index.js';
import { canTransition, isSettled } from '../src/task-state.js';

const S = TaskState;
const all = [
  S.TASK_STATE_SUBMITTED,
  S.TASK_STATE_WORKING,
  S.TASK_STATE_COMPLETED,
  S.TASK_STATE_FAILED,
  S.TASK_STATE_CANCELED,
  S.TASK_STATE_INPUT_REQUIRED,
  S.TASK_STATE_REJECTED,
  S.TASK_STATE_AUTH_REQUIRED,
];
const terminal = [S.TASK_STATE_COMPLETED, S.TASK_STATE_FAILED, S.TASK_STATE_CANCELED, S.TASK_STATE_REJECTED];

describe('task state machine', () => {
  it('classifies states', () => {
    expect(all.filter(isTerminal)).toEqual(terminal);
    expect(all.filter(isInterrupted)).toEqual([S.TASK_STATE_INPUT_REQUIRED, S.TASK_STATE_AUTH_REQUIRED]);
    expect(all.filter(isSettled)).toHaveLength(6);
  });

  it('creates tasks only as SUBMITTED', () => {
    expect(all.filter((to) => canTransition(undefined, to))).toEqual([S.TASK_STATE_SUBMITTED]);
  });

  it('never leaves a terminal state', () => {
    for (const from of terminal) for (const to of all) expect(canTransition(from, to)).toBe(false);
  });

  it('moves from active and interrupted states anywhere but back to SUBMITTED', () => {
    for (const from of [S.TASK_STATE_SUBMITTED, S.TASK_STATE_WORKING, S.TASK_STATE_INPUT_REQUIRED, S.TASK_STATE_AUTH_REQUIRED]) {
      expect(canTransition(from, S.TASK_STATE_SUBMITTED)).toBe(false);
      expect(canTransition(from, S.TASK_STATE_UNSPECIFIED)).toBe(false);
      for (const to of all.filter((s) => s !== S.TASK_STATE_SUBMITTED)) expect(canTransition(from, to)).toBe(true);
    }
  });
});
