/** What the parser reports for each HTTP/1.1 response on a connection. */
export interface ResponseSink {
  /** Status line and headers parsed (`head` is the raw header block, latin1). */
  onHead(status: number, head: string): void;
  /** A piece of the (de-chunked) body. */
  onBody(chunk: Buffer): void;
  /** The response is complete; the connection can carry the next request. */
  onEnd(): void;
}

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-crlf' | 'trailers' | 'until-close';

const CRLFCRLF = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/**
 * Incremental HTTP/1.1 response parser for keep-alive connections: status line, headers,
 * then a `Content-Length` or `chunked` body. Only what a load client needs, and cheap: it
 * scans bytes with `indexOf` and never decodes the body itself.
 */
export class HttpResponseParser {
  private state: State = 'head';
  private remaining = 0;
  private leftover: Buffer | undefined;

  constructor(private readonly sink: ResponseSink) {}

  /** Feeds bytes read from the socket. */
  push(chunk: Buffer): void {
    let data = chunk;
    if (this.leftover) {
      data = Buffer.concat([this.leftover, chunk]);
      this.leftover = undefined;
    }
    let pos = 0;
    const n = data.length;
    while (pos < n) {
      switch (this.state) {
        case 'head': {
          const end = data.indexOf(CRLFCRLF, pos);
          if (end < 0) {
            this.leftover = data.subarray(pos);
            return;
          }
          const head = data.toString('latin1', pos, end);
          pos = end + 4;
          const status = Number(head.slice(9, 12));
          this.sink.onHead(status, head);
          if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) {
            this.state = 'chunk-size';
          } else {
            const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
            if (m) {
              this.remaining = Number(m[1]);
              if (this.remaining === 0) this.sink.onEnd();
              else this.state = 'length';
            } else if (status === 204 || status === 304 || (status >= 100 && status < 200)) {
              this.sink.onEnd();
            } else {
              this.state = 'until-close';
            }
          }
          break;
        }
        case 'length':
        case 'chunk-data': {
          const take = Math.min(this.remaining, n - pos);
          this.sink.onBody(data.subarray(pos, pos + take));
          this.remaining -= take;
          pos += take;
          if (this.remaining === 0) {
            if (this.state === 'length') {
              this.state = 'head';
              this.sink.onEnd();
            } else {
              this.state = 'chunk-crlf';
            }
          }
          break;
        }
        case 'chunk-crlf': {
          if (n - pos < 2) {
            this.leftover = data.subarray(pos);
            return;
          }
          pos += 2;
          this.state = 'chunk-size';
          break;
        }
        case 'chunk-size': {
          const end = data.indexOf(CRLF, pos);
          if (end < 0) {
            this.leftover = data.subarray(pos);
            return;
          }
          const size = parseInt(data.toString('latin1', pos, end), 16);
          pos = end + 2;
          if (!Number.isFinite(size)) throw new Error('bad chunk size');
          if (size === 0) this.state = 'trailers';
          else {
            this.remaining = size;
            this.state = 'chunk-data';
          }
          break;
        }
        case 'trailers': {
          const end = data.indexOf(CRLF, pos);
          if (end < 0) {
            this.leftover = data.subarray(pos);
            return;
          }
          const empty = end === pos;
          pos = end + 2;
          if (empty) {
            this.state = 'head';
            this.sink.onEnd();
          }
          break;
        }
        case 'until-close':
          this.sink.onBody(data.subarray(pos));
          return;
      }
    }
  }

  /** The connection closed: a body delimited by close ends here. Returns false if a response was cut short. */
  close(): boolean {
    if (this.state === 'until-close') {
      this.state = 'head';
      this.sink.onEnd();
      return true;
    }
    return this.state === 'head' && !this.leftover;
  }
}
