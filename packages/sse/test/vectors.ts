/**
 * The shared test vectors of SSE parsing (WHATWG HTML, "Parsing an event stream"). Both
 * parsers of this repo are judged against them: `readSse` (what our client, bridges and
 * A2A-Lite use) and the conformance oracle's own parser, which stays independent code on
 * purpose because it judges our servers. Only this data and the way it is cut into chunks are
 * shared, never parsing code.
 */

/** An event as the spec dispatches it: type (undefined = `message`), data, last event ID (undefined = empty). */
export interface ExpectedEvent {
  readonly event?: string;
  readonly data: string;
  readonly id?: string;
}

/** A stream (as the chunks a server wrote) and the events a spec-correct parser dispatches. */
export interface SseVector {
  readonly name: string;
  readonly chunks: readonly string[];
  readonly events: readonly ExpectedEvent[];
}

export const SSE_VECTORS: readonly SseVector[] = [
  { name: 'one event', chunks: ['data: hello\n\n'], events: [{ data: 'hello' }] },
  {
    name: 'CRLF split across chunks (not a blank line)',
    chunks: ['data: a\r', '\n\r', '\ndata: b\r\n', '\r', '\n'],
    events: [{ data: 'a' }, { data: 'b' }],
  },
  {
    name: 'an empty chunk between the CR and the LF of a CRLF',
    chunks: ['data: a\r', '', '\ndata: b\r', '', '\n', '', '\r', '', '\n'],
    events: [{ data: 'a\nb' }],
  },
  {
    name: 'bare CR line ends',
    chunks: ['id: 1\rdata: a\r\rdata: b\r', '\r'],
    events: [
      { data: 'a', id: '1' },
      { data: 'b', id: '1' },
    ],
  },
  { name: 'a trailing event without its blank line is dropped', chunks: ['data: one\n\n', 'data: cut off\n'], events: [{ data: 'one' }] },
  { name: 'a trailing line without any line end is dropped', chunks: ['data: one\n\ndata: cut'], events: [{ data: 'one' }] },
  {
    name: 'comments (heartbeats) are ignored, also inside an event',
    chunks: [': ping\n\n', ':\n\n', 'data: x\n:inside\ndata: y\n\n'],
    events: [{ data: 'x\ny' }],
  },
  { name: 'retry: changes no event, valid or not', chunks: ['retry: 1000\ndata: x\n\nretry: soon\n\nretry: 5\n\n'], events: [{ data: 'x' }] },
  { name: 'multi-line data, empty lines kept', chunks: ['data: a\ndata:\ndata: c\n\n'], events: [{ data: 'a\n\nc' }] },
  {
    name: 'one optional space after the colon, colons in the value',
    chunks: ['data:no-space\ndata:  two spaces\ndata: a: b\n\n'],
    events: [{ data: 'no-space\n two spaces\na: b' }],
  },
  { name: 'a leading BOM is stripped', chunks: ['\uFEFFdata: x\n\n'], events: [{ data: 'x' }] },
  {
    name: 'only one BOM is stripped: a second one spoils the first field name',
    chunks: ['\uFEFF\uFEFFdata: x\n\ndata: y\n\n'],
    events: [{ data: 'y' }],
  },
  {
    name: 'the last event ID persists across events until changed',
    chunks: ['id: 1\ndata: a\n\ndata: b\n\n', 'id\ndata: c\n\n', 'id: 7\n\ndata: d\n\n', 'id: x\u0000y\ndata: e\n\nid:\ndata: f\n\n'],
    events: [{ data: 'a', id: '1' }, { data: 'b', id: '1' }, { data: 'c' }, { data: 'd', id: '7' }, { data: 'e', id: '7' }, { data: 'f' }],
  },
  {
    name: 'empty data is an event; no data line is none',
    chunks: ['data\n\n', 'data:\n\n', 'data: \n\n', 'event: x\n\n', '\n\n\n', 'id: 2\n\n'],
    events: [{ data: '' }, { data: '' }, { data: '' }],
  },
  {
    name: 'event type: per event, empty means the default',
    chunks: ['event: update\ndata: a\n\n', 'data: b\n\n', 'event: x\nevent:\ndata: c\n\n'],
    events: [{ event: 'update', data: 'a' }, { data: 'b' }, { data: 'c' }],
  },
  { name: 'unknown and wrongly cased fields are ignored', chunks: ['Data: x\nfoo: bar\nnocolon\ndata: y\n\n'], events: [{ data: 'y' }] },
  { name: 'multi-byte characters', chunks: ['data: h\u00e9llo \u2713 \u{1F600}\n\n'], events: [{ data: 'h\u00e9llo \u2713 \u{1F600}' }] },
];

/**
 * The ways a vector is cut into byte chunks: as the server wrote it, then every 1, 2, 3 and 5
 * bytes (which splits CRLF pairs, the BOM and multi-byte characters at every place).
 */
export function chunkings(vector: SseVector): Array<{ readonly how: string; readonly chunks: Uint8Array[] }> {
  const encoder = new TextEncoder();
  const whole = encoder.encode(vector.chunks.join(''));
  const every = (n: number) => Array.from({ length: Math.ceil(whole.length / n) }, (_, i) => whole.slice(i * n, (i + 1) * n));
  return [
    { how: 'as written', chunks: vector.chunks.map((c) => encoder.encode(c)) },
    ...[1, 2, 3, 5].map((n) => ({ how: `every ${n} bytes`, chunks: every(n) })),
  ];
}

/** The chunks as an async iterable, the way a body delivers them. */
export async function* stream(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk;
}
