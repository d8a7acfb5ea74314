import type { ServerResponse } from 'node:http';
import type { DeliverySink } from '@a2a-polyglot/core';
import { withPresetHeaders } from './preset-headers.js';
import { SSE_HEADERS } from './sse-frame.js';

/**
 * A node:http response as the sink of an SSE stream: `res.write` returning false (the socket
 * buffer is over its high-water mark) means no room until `'drain'`, so a client that reads
 * slower than we produce pauses the stream at its log cursor instead of growing the buffer.
 * Open while neither the response nor its socket is destroyed, which is before their close
 * event. A group of frames leaves with one `res.write`.
 */
export class NodeSseSink implements DeliverySink<readonly string[]> {
  private blocked = false;
  /** Something was written (the headers went with it). */
  private wroteAny = false;
  private wake: () => void = noop;
  private closed: () => void = noop;

  /** Writes the SSE headers (with `headers`, say `A2A-Extensions`, CORS). */
  constructor(
    private readonly res: ServerResponse,
    headers: Readonly<Record<string, string>> = {},
  ) {
    res.writeHead(200, { ...withPresetHeaders(res, SSE_HEADERS), ...headers });
    // Node keeps the head it built (`_header`, read by `headersSent`) for the response's life
    // as a rope of one cons string per piece, about 1 KB for our dozen headers: reading one
    // character flattens it in place, to one string of its length.
    const head = (res as { _header?: unknown })._header;
    if (typeof head === 'string') head.charCodeAt(0);
    // The headers leave with the first event (one packet, one wake-up of the client instead
    // of two), or on the next turn when no event is ready by then.
    setImmediate(() => {
      if (!this.wroteAny && this.isOpen()) res.flushHeaders();
    });
  }

  /** Bytes accepted by the response but not yet handed to the socket (tests, metrics). */
  get bufferedBytes(): number {
    return this.res.writableLength;
  }

  attach(wake: () => void, closed: () => void): void {
    this.wake = wake;
    this.closed = closed;
    this.res.on('drain', this.onDrain);
    this.res.on('close', this.onClose);
  }

  write(chunk: readonly string[]): void {
    this.wroteAny = true;
    if (!this.res.write(chunk.length === 1 ? (chunk[0] as string) : chunk.join(''))) this.blocked = true;
  }

  hasRoom(): boolean {
    return !this.blocked;
  }

  isOpen(): boolean {
    return !this.res.destroyed && this.res.socket?.destroyed !== true;
  }

  end(): void {
    if (!this.res.writableEnded) this.res.end();
  }

  release(): void {
    this.res.off('drain', this.onDrain);
    this.res.off('close', this.onClose);
  }

  /** The stall reaction: drop the unread buffers with the connection. */
  destroy(): void {
    this.res.destroy();
  }

  private readonly onDrain = (): void => {
    this.blocked = false;
    this.wake();
  };

  private readonly onClose = (): void => {
    this.closed();
  };
}

function noop(): void {}
