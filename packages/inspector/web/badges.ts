/** Task states as short labels and badges, one rule for the task view and the task list. */
import { type TaskState, taskStateToJSON } from '@a2a-polyglot/model';
import { h } from './dom.js';

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`. */
export function stateLabel(state: TaskState | undefined): string {
  if (state === undefined) return 'unknown';
  return taskStateToJSON(state)
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replaceAll('_', '-');
}

/** A coloured badge for a state. */
export function stateBadge(state: TaskState | undefined): HTMLElement {
  const label = stateLabel(state);
  return h('span', { class: `badge ${label}` }, label);
}

/** Turns `badge` (made by {@link stateBadge}) into the badge of `state`, in place: an element kept across events. */
export function setBadge(badge: HTMLElement, state: TaskState | undefined): void {
  const label = stateLabel(state);
  badge.className = `badge ${label}`;
  badge.textContent = label;
}
