/**
 * JSON as a collapsible tree: objects and arrays are `<details>` (keyboard-operable by
 * themselves), open at the first two levels; leaves are `key: value` lines.
 */
import { h } from './dom.js';

/** Renders `value` under `label`. */
export function dataTree(value: unknown, label = 'data', depth = 0): HTMLElement {
  if (value === null || typeof value !== 'object') return h('div', { class: 'tree-leaf' }, `${label}: ${JSON.stringify(value) ?? String(value)}`);
  const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const summary = Array.isArray(value) ? `${label} [${entries.length}]` : `${label} {${entries.length}}`;
  return h('details', { class: 'tree', open: depth < 2 }, h('summary', {}, summary), ...entries.map(([key, child]) => dataTree(child, key, depth + 1)));
}
