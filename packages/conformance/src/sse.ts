/** One Server-Sent Event as the parser hands it out. */
export interface SseEvent {
  /** The `event:` field; undefined means the default type (`message`), as does an empty `event:`. */
  readonly event: string | undefined;
  /** The `data:` lines, joined with `\n`. */
  readonly data: string;
  /** The last event ID: the `id:` of this event or of the last one that had one (SSE spec); undefined while empty. */
  readonly id: string | undefined;
}

/**
 * The oracle's own SSE parser (WHATWG "Parsing an event stream"), shared by every HTTP driver.
 * It judges our servers, so it deliberately shares no code with the `readSse` they and our
 * client use; both are checked against the same test vectors instead. Accepts `\n`, `\r\n`
 * and `\r` line endings, strips one leading BOM, ignores `:` comment lines (keep-alives),
 * `retry:` and unknown fields, strips one space after the colon, keeps the last event ID
 * across events, and handles chunks that split lines, CRLF pairs or characters anywhere.
 * Events with no data are not dispatched, nor is an event the stream ends before its blank line.
 */
export async function* parseSse(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent> {
  // The BOM is stripped below, once, for byte and text chunks alike.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let atStart = true;
  let buffer = '';
  let data: string[] = [];
  let event: string | undefined;
  let lastId: string | undefined;
  let pendingCr = false;

  function* line(text: string): Generator<SseEvent> {
    if (text === '') {
      if (data.length > 0) yield { event, data: data.join('\n'), id: lastId };
      data = [];
      event = undefined;
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value === '' ? undefined : value;
    else if (field === 'id' && !value.includes('\u0000')) lastId = value === '' ? undefined : value;
  }

  for await (const chunk of chunks) {
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (text === '') continue;
    if (atStart && text.startsWith('\uFEFF')) text = text.slice(1);
    atStart = false;
    // A CR ending the previous chunk already ended its line; a LF right after it belongs to it.
    if (pendingCr && text.startsWith('\n')) text = text.slice(1);
    pendingCr = false;
    buffer += text;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      yield* line(buffer.slice(start, i));
      if (c === '\r') {
        if (i + 1 < buffer.length) {
          if (buffer[i + 1] === '\n') i++;
        } else {
          pendingCr = true;
        }
      }
      start = i + 1;
    }
    buffer = buffer.slice(start);
  }
  buffer += decoder.decode();
  // A stream that ends mid-event discards it (per the SSE spec).
}
