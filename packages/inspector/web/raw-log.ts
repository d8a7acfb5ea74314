/**
 * The raw pane: every byte-level exchange with the agent as it went over the wire: the card,
 * each HTTP request and response, each SSE event and each WebSocket frame, pretty-printed when
 * it is JSON, each copyable, and all of it at once. What the task view shows is what the client
 * made of these; when the two disagree, this pane is the truth.
 */
import { clock, h } from './dom.js';
import { copyButton } from './copy.js';
import { prettyJson } from './json-text.js';

/** What an entry is. */
export type RawKind = 'card' | 'request' | 'response' | 'sse' | 'ws-out' | 'ws-in' | 'ws';

/** One entry of the pane. */
export interface RawEntry {
  readonly kind: RawKind;
  /** One line: method and URL, status, frame direction. */
  readonly title: string;
  /** The body as received (pretty-printed when it is JSON); may be empty. */
  readonly body: string;
}

/** Past this many entries the oldest go (a long stream must not eat the tab's memory). */
const MAX_ENTRIES = 400;

/** Labels of the kinds, as shown. */
const KIND_LABELS: Readonly<Record<RawKind, string>> = {
  card: 'card',
  request: '→ HTTP',
  response: '← HTTP',
  sse: '← SSE',
  'ws-out': '→ WS',
  'ws-in': '← WS',
  ws: 'WS',
};

/** The pane (`#raw`): entries appended as they happen. */
export class RawLog {
  private readonly entries: { readonly entry: RawEntry; readonly at: Date }[] = [];

  constructor(private readonly list: HTMLElement) {}

  /** Adds an entry. */
  add(entry: RawEntry): void {
    const at = new Date();
    this.entries.push({ entry, at });
    const body = prettyJson(entry.body);
    this.list.append(
      h(
        'li',
        { class: `raw ${entry.kind}`, 'data-kind': entry.kind },
        h(
          'div',
          { class: 'raw-title' },
          h('span', { class: 'time' }, clock(at)),
          h('span', { class: 'raw-kind' }, KIND_LABELS[entry.kind]),
          h('span', { class: 'mono' }, entry.title),
          body !== '' && copyButton(() => body, 'Copy this body'),
        ),
        body !== '' && h('pre', { class: 'raw-body' }, body),
      ),
    );
    while (this.entries.length > MAX_ENTRIES) {
      this.entries.shift();
      this.list.firstElementChild?.remove();
    }
    this.list.scrollTop = this.list.scrollHeight;
  }

  /** Every entry as one text, for "Copy all". */
  text(): string {
    return this.entries.map(({ entry, at }) => `${clock(at)} ${KIND_LABELS[entry.kind]} ${entry.title}\n${prettyJson(entry.body)}`.trimEnd()).join('\n\n');
  }

  /** Empties the pane. */
  clear(): void {
    this.entries.length = 0;
    this.list.replaceChildren();
  }
}
