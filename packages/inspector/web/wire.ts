/**
 * Taps on the wire for the raw pane: a `fetch` and a `WebSocket` class that behave as the
 * browser's and report every request, response, SSE event and frame. The client takes both as
 * options, so what the pane shows is exactly what went over the network (not a re-encoding).
 * Credentials are masked in what is shown.
 */
import type { WebSocketConstructor, WebSocketLike } from '@a2a-polyglot/client';
import type { RawEntry } from './raw-log.js';

/** Where the taps report. */
export type RawSink = (entry: RawEntry) => void;

/** Header names whose values are credentials, shown masked. */
export function maskedHeaders(headers: Headers, secretNames: readonly string[]): string {
  const secret = new Set(['authorization', ...secretNames.map((n) => n.toLowerCase())]);
  const lines: string[] = [];
  for (const [name, value] of headers) lines.push(`${name}: ${secret.has(name) ? `•••• (${value.length} chars)` : value}`);
  return lines.join('\n');
}

/** A `fetch` reporting each call: the request with its headers and body, the response with its body or, for SSE, each event. */
export function tappedFetch(sink: RawSink, secretNames: () => readonly string[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = typeof init?.body === 'string' ? init.body : '';
    sink({ kind: 'request', title: `${request.method} ${request.url}\n${maskedHeaders(request.headers, secretNames())}`, body });
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      sink({ kind: 'response', title: `${request.method} ${request.url} failed: ${(error as Error).message}`, body: '' });
      throw error;
    }
    const title = `${response.status} ${response.statusText} ${request.method} ${request.url}`;
    if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      sink({ kind: 'response', title: `${title} (event stream)`, body: '' });
      void readEvents(response.clone(), (data) => sink({ kind: 'sse', title: request.url, body: data }));
      return response;
    }
    // Read here, then handed on as a new Response: a clone read alongside the client would be
    // cut short when the client's call ends and aborts its signal. The client reads only the status, headers and body.
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      sink({ kind: 'response', title: `${title} (the body could not be read: ${(error as Error).message})`, body: '' });
      throw error;
    }
    sink({ kind: 'response', title, body: text });
    return new Response(response.status === 204 || response.status === 304 ? null : text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** Calls `onEvent` with the `data` of each server-sent event of `response` (the SSE framing, minimal: data lines joined). */
async function readEvents(response: Response, onEvent: (data: string) => void): Promise<void> {
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end = buffer.search(/\r?\n\r?\n/);
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        const data = block
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
          .join('\n');
        if (data !== '') onEvent(data);
        end = buffer.search(/\r?\n\r?\n/);
      }
    }
  } catch {
    // the stream was cut or aborted: the client reports that
  }
}

/** A `WebSocket` class reporting each frame (the auth subprotocol is not shown: it holds the token). */
export function tappedWebSocket(sink: RawSink): WebSocketConstructor {
  return class TappedWebSocket implements WebSocketLike {
    private readonly socket: WebSocket;
    onopen: ((event: unknown) => void) | null = null;
    onmessage: ((event: { data: unknown }) => void) | null = null;
    onclose: ((event: { code: number; reason: string }) => void) | null = null;
    onerror: ((event: unknown) => void) | null = null;

    constructor(url: string, protocols?: string | string[]) {
      this.socket = new WebSocket(url, protocols);
      sink({ kind: 'ws', title: `open ${url}`, body: '' });
      this.socket.onopen = (event) => this.onopen?.(event);
      this.socket.onmessage = (event: MessageEvent) => {
        sink({ kind: 'ws-in', title: url, body: typeof event.data === 'string' ? event.data : '(binary frame)' });
        this.onmessage?.(event);
      };
      this.socket.onclose = (event) => {
        sink({ kind: 'ws', title: `closed ${url} (${event.code}${event.reason ? ` ${event.reason}` : ''})`, body: '' });
        this.onclose?.(event);
      };
      this.socket.onerror = (event) => this.onerror?.(event);
    }

    get readyState(): number {
      return this.socket.readyState;
    }

    get protocol(): string {
      return this.socket.protocol;
    }

    send(data: string): void {
      sink({ kind: 'ws-out', title: this.socket.url, body: data });
      this.socket.send(data);
    }

    close(code?: number, reason?: string): void {
      this.socket.close(code, reason);
    }
  };
}
