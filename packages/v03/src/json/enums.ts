import { v03Violation } from './json-object.js';

/** v1.0 TaskState JSON names ⇄ v0.3 kebab-case states (spec §6.2). */
const STATES: ReadonlyArray<readonly [string, string]> = [
  ['TASK_STATE_SUBMITTED', 'submitted'],
  ['TASK_STATE_WORKING', 'working'],
  ['TASK_STATE_INPUT_REQUIRED', 'input-required'],
  ['TASK_STATE_COMPLETED', 'completed'],
  ['TASK_STATE_CANCELED', 'canceled'],
  ['TASK_STATE_FAILED', 'failed'],
  ['TASK_STATE_REJECTED', 'rejected'],
  ['TASK_STATE_AUTH_REQUIRED', 'auth-required'],
  ['TASK_STATE_UNSPECIFIED', 'unknown'],
];
const STATE_TO_V03 = new Map(STATES);
const STATE_FROM_V03 = new Map(STATES.map(([v1, v03]) => [v03, v1]));

/** v0.3 states a status-update event is `final: true` for (what both SDK compat layers do, spec §0 item 5). */
const FINAL_V03_STATES = new Set(['completed', 'canceled', 'failed', 'rejected']);

/** A v1.0 TaskState JSON name as the v0.3 kebab-case string; absent (UNSPECIFIED) ⇒ `unknown`. */
export function stateToV03(state: unknown): string {
  return STATE_TO_V03.get(typeof state === 'string' ? state : 'TASK_STATE_UNSPECIFIED') ?? 'unknown';
}

/** A v0.3 state as the v1.0 JSON name; anything else is InvalidParams at `path`. */
export function stateFromV03(state: unknown, path: string): string {
  const v1 = typeof state === 'string' ? STATE_FROM_V03.get(state) : undefined;
  if (!v1) throw v03Violation(path, `must be one of ${[...STATE_FROM_V03.keys()].join(', ')}`);
  return v1;
}

/** True when a v0.3 status-update with this state ends the stream (`final`). */
export function isFinalV03State(state: string): boolean {
  return FINAL_V03_STATES.has(state);
}

/** v1.0 Role JSON name → v0.3 role; the only roles are user and agent. */
export function roleToV03(role: unknown): 'user' | 'agent' {
  return role === 'ROLE_USER' ? 'user' : 'agent';
}

/** v0.3 role → v1.0 Role JSON name; anything else is InvalidParams at `path`. */
export function roleFromV03(role: unknown, path: string): string {
  if (role === 'user') return 'ROLE_USER';
  if (role === 'agent') return 'ROLE_AGENT';
  throw v03Violation(path, 'must be "user" or "agent"');
}
