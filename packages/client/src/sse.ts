import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { clientError, networkReason } from './failures.js';
import type { OpenHttp } from './http.js';

/** One dispatched server-sent event. */
export interface SseMessage {
  /** `event:` field; `message` when absent. */
  readonly event: string;
  /** `data:` lines joined with `\n`. */
  readonly data: string;
  /** `id:` field of this event, if it had one. */
  readonly id?: string;
}

/** Largest event accepted by default (a2a-js bounds at 4 MiB; artifacts can be bigger). */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;

/**
 * Incremental `text/event-stream` parser (WHATWG HTML §9.2): accepts `\n`, `\r\n` and `\r`
 * line ends even when split across chunks, ignores comments (heartbeats), joins multi-line
 * data, and bounds the size of one event so a broken server cannot exhaust memory.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private dataBytes = 0;
  private event = '';
  private id: string | undefined;

  constructor(private readonly maxEventBytes = DEFAULT_MAX_EVENT_BYTES) {}

  /** Feeds decoded text; returns the events it completed. */
  push(text: string): SseMessage[] {
    this.buffer += text;
    const out: SseMessage[] = [];
    // A trailing CR may be the first half of a CRLF: keep it for the next chunk.
    const holdBack = this.buffer.endsWith('\r') ? 1 : 0;
    const usable = this.buffer.slice(0, this.buffer.length - holdBack);
    const lines = usable.split(/\r\n|\r|\n/);
    const rest = lines.pop()!;
    this.buffer = rest + this.buffer.slice(this.buffer.length - holdBack);
    if (this.buffer.length > this.maxEventBytes) throw tooLarge(this.maxEventBytes);
    for (const line of lines) {
      const message = this.line(line);
      if (message) out.push(message);
    }
    return out;
  }

  private line(line: string): SseMessage | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.dataBytes += value.length + 1;
      if (this.dataBytes > this.maxEventBytes) throw tooLarge(this.maxEventBytes);
      this.data.push(value);
    } else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return undefined;
  }

  private dispatch(): SseMessage | undefined {
    const message: SseMessage | undefined =
      this.data.length === 0 ? undefined : { event: this.event || 'message', data: this.data.join('\n'), ...(this.id === undefined ? {} : { id: this.id }) };
    this.data = [];
    this.dataBytes = 0;
    this.event = '';
    this.id = undefined;
    return message;
  }
}

function tooLarge(max: number): A2AError {
  return new A2AError(A2AErrorCode.InvalidAgentResponse, `A server-sent event exceeded ${max} bytes`);
}

/**
 * Reads the SSE body of an open response. Any received bytes (heartbeat comments too) reset
 * the idle timer; when it fires the exchange is aborted with an `idle` failure. A connection
 * that drops is reported as a `cut` (resumable), a clean close simply ends the iteration: the
 * caller decides whether the stream had ended or was cut short. Breaking out closes the
 * connection.
 */
export async function* readSse(open: OpenHttp, options: { idleTimeoutMs?: number; what: string; maxEventBytes?: number }): AsyncGenerator<SseMessage> {
  const body = open.response.body;
  if (!body) {
    open.close();
    return;
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser(options.maxEventBytes);
  let idle: ReturnType<typeof setTimeout> | undefined;
  const idleMs = options.idleTimeoutMs;
  const arm = () => {
    if (idleMs === undefined || idleMs <= 0) return;
    if (idle !== undefined) clearTimeout(idle);
    idle = setTimeout(() => open.fail(clientError(A2AErrorCode.DeadlineExceeded, 'idle', `${options.what}: the stream sent nothing for ${idleMs} ms`)), idleMs);
  };
  try {
    arm();
    for (;;) {
      let chunk: { done: boolean; value?: Uint8Array };
      try {
        chunk = await reader.read();
      } catch (error) {
        throw open.failure() ?? clientError(A2AErrorCode.Unavailable, 'cut', `${options.what}: the stream was cut (${networkReason(error)})`, error);
      }
      if (chunk.done) break;
      arm();
      for (const message of parser.push(decoder.decode(chunk.value, { stream: true }))) yield message;
    }
    for (const message of parser.push(decoder.decode() + '\n')) yield message;
  } finally {
    if (idle !== undefined) clearTimeout(idle);
    reader.cancel().catch(() => undefined);
    open.close();
  }
}

/** The seq of an SSE event: its `id:` when it is a non-negative integer. */
export function seqOf(id: string | undefined): number | undefined {
  return id !== undefined && /^\d{1,15}$/.test(id) ? Number(id) : undefined;
}
