/** One Server-Sent Event as the parser hands it out. */
export interface SseEvent {
  /** The `event:` field; undefined means the default type (`message`). */
  readonly event: string | undefined;
  /** The `data:` lines, joined with `\n`. */
  readonly data: string;
  /** The `id:` field of this event (or the last one seen), if any. */
  readonly id: string | undefined;
}

/**
 * A small SSE parser (WHATWG "event stream interpretation"), shared by every HTTP driver.
 * Accepts `\n`, `\r\n` and `\r` line endings, ignores `:` comment lines (keep-alives) and
 * unknown fields, strips one space after the colon, and handles chunks that split lines or
 * even CRLF pairs anywhere. Events with no data are not dispatched.
 */
export async function* parseSse(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
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
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\u0000')) lastId = value;
  }

  for await (const chunk of chunks) {
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
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
