/**
 * The A2A-Lite vocabulary (protocol `a2a-lite/1.0`): message types, task states and the
 * parameters each type requires. A2A-Lite is a chat-channel convention: a one-line tag
 * `[A2A:<type> key=value …]` followed by a natural-language body.
 */

/** The seven message types. */
export const LITE_TYPES = ['discover', 'card', 'task', 'status', 'result', 'cancel', 'ack'] as const;
export type LiteType = (typeof LITE_TYPES)[number];

/** Task states (note the double l in `cancelled`). */
export const LITE_STATES = ['accepted', 'working', 'input-required', 'completed', 'failed', 'cancelled', 'rejected'] as const;
export type LiteState = (typeof LITE_STATES)[number];

/** States after which a task changes no more. */
export const LITE_TERMINAL_STATES: readonly LiteState[] = ['completed', 'failed', 'cancelled', 'rejected'];

/**
 * Required parameters per type. Note the asymmetry of the convention: a `task` names itself
 * with `id=`, every follow-up refers to it with `task=`.
 */
export const LITE_REQUIRED: Readonly<Record<LiteType, readonly string[]>> = {
  discover: [],
  card: [],
  task: ['id'],
  status: ['task', 'state'],
  result: ['task', 'state'],
  cancel: ['task'],
  ack: ['task'],
};

/** Optional parameters the convention documents (others are allowed and kept). */
export const LITE_OPTIONAL: Readonly<Record<LiteType, readonly string[]>> = {
  discover: [],
  card: [],
  task: ['skill', 'priority'],
  status: ['progress', 'eta'],
  result: ['artifacts'],
  cancel: ['reason'],
  ack: [],
};

/** A message type token. */
export const TYPE_PATTERN = /^[a-z][a-z-]*$/;
/** A parameter key: lower-case letters, digits, `_` and `-` (the original parser knows no digits; our formatter never needs them). */
export const KEY_PATTERN = /^[a-z][a-z0-9_-]*$/;

export function isLiteType(value: string): value is LiteType {
  return (LITE_TYPES as readonly string[]).includes(value);
}

export function isLiteState(value: string): value is LiteState {
  return (LITE_STATES as readonly string[]).includes(value);
}
