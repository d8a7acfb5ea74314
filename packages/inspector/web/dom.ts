/**
 * A tiny element builder, because the page is small enough that a framework would be most of
 * its weight. Children are nodes or strings (always set as text: nothing from an agent is ever
 * parsed as HTML).
 */

/** Attributes of {@link h}: `on*` functions become listeners, `false`/`undefined` are left out. */
export type Attrs = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;
/** A child of {@link h}. */
export type Child = Node | string | undefined | false;

/** Creates `<tag ...attrs>children</tag>`. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== undefined) element.setAttribute(name, String(value));
  }
  element.append(...children.filter((c): c is Node | string => c !== undefined && c !== false));
  return element;
}

/** The element with this id, typed; a missing one is a bug in index.html. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`index.html has no #${id}`);
  return element as T;
}

/** The first element under `parent` matching `selector`; a missing one is a page bug, said as such. */
export function within<T extends Element = HTMLElement>(parent: ParentNode, selector: string): T {
  const element = parent.querySelector<T>(selector);
  if (!element) throw new Error(`index.html has no ${selector} there`);
  return element;
}

/** Replaces an element's children. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren(...children.filter((c): c is Node | string => c !== undefined && c !== false));
}

/** `HH:MM:SS.mmm` of a time, for the timeline. */
export function clock(date: Date): string {
  return date.toISOString().slice(11, 23);
}
