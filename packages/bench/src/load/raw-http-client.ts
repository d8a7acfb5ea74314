import { connect, type Socket } from 'node:net';
import { HttpResponseParser } from './http-response-parser.js';

/** Callbacks of one request on a {@link RawHttpConnection}. */
export interface HttpExchange {
  onHead?(status: number, head: string): void;
  onBody?(chunk: Buffer): void;
  /** The whole response arrived. */
  onEnd(status: number): void;
  /** The connection failed or closed before the response completed. */
  onError(error: Error): void;
}

/**
 * One keep-alive HTTP/1.1 connection over a bare `net.Socket`, one request at a time (no
 * pipelining). The load client of the benchmark: it writes pre-built request bytes and
 * parses only the framing of the response, so it costs far less CPU than the servers it
 * measures (node's own http client would be a bottleneck on one core).
 */
export class RawHttpConnection {
  private readonly parser: HttpResponseParser;
  private current: HttpExchange | undefined;
  private status = 0;
  private closed = false;

  private constructor(private readonly socket: Socket) {
    this.parser = new HttpResponseParser({
      onHead: (status, head) => {
        this.status = status;
        this.current?.onHead?.(status, head);
      },
      onBody: (chunk) => this.current?.onBody?.(chunk),
      onEnd: () => {
        const exchange = this.current;
        this.current = undefined;
        exchange?.onEnd(this.status);
      },
    });
    socket.on('data', (chunk: Buffer) => {
      try {
        this.parser.push(chunk);
      } catch (error) {
        this.fail(error as Error);
        socket.destroy();
      }
    });
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => {
      this.closed = true;
      if (this.current && !this.parser.close()) this.fail(new Error('connection closed mid-response'));
      else if (this.current) this.fail(new Error('connection closed'));
    });
  }

  /** Opens a connection (Nagle off), failing after `timeoutMs`. */
  static connect(host: string, port: number, timeoutMs = 5000): Promise<RawHttpConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port, noDelay: true });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`connect to ${host}:${port} timed out`));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(new RawHttpConnection(socket));
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  /** False once the socket closed; the owner then opens a new connection. */
  get alive(): boolean {
    return !this.closed && !this.socket.destroyed;
  }

  /** Sends one request; `exchange` is told about its response. One request at a time. */
  send(request: Buffer, exchange: HttpExchange): void {
    if (this.current) throw new Error('a request is already in flight on this connection');
    if (!this.alive) {
      exchange.onError(new Error('connection closed'));
      return;
    }
    this.current = exchange;
    this.status = 0;
    this.socket.write(request);
  }

  /** Closes the connection (an in-flight exchange fails). */
  close(): void {
    this.socket.destroy();
  }

  private fail(error: Error): void {
    const exchange = this.current;
    this.current = undefined;
    exchange?.onError(error);
  }
}
