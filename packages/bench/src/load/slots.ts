import type { WebSocket as WsClient } from 'ws';
import type { OpOutcome, Slot } from './closed-loop.js';
import { grpcRequestHeaderBlock } from './hpack-encode.js';
import { H2GrpcConnection } from './h2-grpc-client.js';
import { ID_PLACEHOLDER, type RequestSpec } from './job.js';
import { RawHttpConnection } from './raw-http-client.js';
import { SseCounter } from './sse-counter.js';
import type { Observed } from './checks.js';
import { SessionMux, SessionSlot } from './session-client.js';

/** Receives what the first completed operation of a job looked like, for checking. */
export type ObserveFirst = (seen: Observed) => void;

/** A request template with a unique id written in per operation. */
class IdTemplate {
  readonly bytes: Buffer;
  private readonly offset: number;
  private counter = 0;

  constructor(
    template: Buffer,
    private readonly slotIndex: number,
  ) {
    this.bytes = Buffer.from(template);
    this.offset = this.bytes.indexOf(ID_PLACEHOLDER, 0, 'latin1');
  }

  /** Writes the next id; returns the bytes (the same buffer every time). */
  next(): Buffer {
    if (this.offset >= 0) {
      this.counter = (this.counter + 1) % 100_000_000;
      this.bytes.write(String(this.slotIndex * 100_000_000 + this.counter).padStart(12, '0'), this.offset, 'latin1');
    }
    return this.bytes;
  }
}

const now = () => process.hrtime.bigint();

/** HTTP/1.1 keep-alive slot: unary JSON or a whole SSE stream per operation. */
class HttpSlot implements Slot {
  private conn: RawHttpConnection | undefined;
  private readonly template: IdTemplate;

  constructor(
    private readonly spec: RequestSpec,
    index: number,
    private observe: ObserveFirst | undefined,
  ) {
    this.template = new IdTemplate(Buffer.from(spec.http ?? '', 'utf8'), index);
  }

  run(done: (outcome: OpOutcome) => void): void {
    const request = this.template.next();
    const go = (conn: RawHttpConnection) => {
      const stream = this.spec.shape === 'stream';
      const observe = this.observe;
      const sse = stream ? new SseCounter({ keep: observe !== undefined }) : undefined;
      const body: Buffer[] | undefined = !stream && observe ? [] : undefined;
      let firstEventAt: bigint | undefined;
      conn.send(request, {
        onBody: sse
          ? (chunk) => {
              if (sse.push(chunk) > 0 && firstEventAt === undefined) firstEventAt = now();
            }
          : body
            ? (chunk) => body.push(Buffer.from(chunk))
            : undefined,
        onEnd: (status) => {
          const events = sse ? sse.events : 1;
          const ok = status === 200 && events > 0;
          if (ok && observe) {
            this.observe = undefined;
            observe(sse ? { first: sse.first, last: sse.last, events } : { body: Buffer.concat(body ?? []), events });
          }
          done({ ok, events, firstEventAt, error: ok ? undefined : `HTTP ${status}${events === 0 ? ' (no event)' : ''}` });
        },
        onError: (error) => {
          this.conn = undefined;
          done({ ok: false, events: 0, error: error.message });
        },
      });
    };
    if (this.conn?.alive) go(this.conn);
    else
      RawHttpConnection.connect(this.spec.host, this.spec.port).then(
        (conn) => {
          this.conn = conn;
          go(conn);
        },
        (error: Error) => done({ ok: false, events: 0, error: error.message }),
      );
  }

  close(): void {
    this.conn?.close();
    this.conn = undefined;
  }
}

/** Shares one HTTP/2 connection among gRPC slots, reconnecting once it dies. */
export class H2Pool {
  private conn: H2GrpcConnection | undefined;
  private connecting: Promise<H2GrpcConnection> | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  get(): Promise<H2GrpcConnection> | H2GrpcConnection {
    if (this.conn?.alive) return this.conn;
    this.connecting ??= H2GrpcConnection.connect(this.host, this.port).then(
      (conn) => {
        this.conn = conn;
        this.connecting = undefined;
        return conn;
      },
      (error) => {
        this.connecting = undefined;
        throw error;
      },
    );
    return this.connecting;
  }

  close(): void {
    this.conn?.close();
    this.conn = undefined;
  }
}

/** gRPC slot: one call in flight at a time on the shared connection. */
class GrpcSlot implements Slot {
  private readonly template: IdTemplate;
  private readonly headerBlock: Buffer;

  constructor(
    private readonly spec: RequestSpec,
    index: number,
    private readonly pool: H2Pool,
    private observe: ObserveFirst | undefined,
  ) {
    const g = spec.grpc!;
    this.template = new IdTemplate(Buffer.from(g.messageB64, 'base64'), index);
    this.headerBlock = grpcRequestHeaderBlock(g.path, `${spec.host}:${spec.port}`, g.metadata);
  }

  run(done: (outcome: OpOutcome) => void): void {
    const message = this.template.next();
    const go = (conn: H2GrpcConnection) => {
      const observe = this.observe;
      let events = 0;
      let firstEventAt: bigint | undefined;
      let first: Buffer | undefined;
      let last: Buffer | undefined;
      conn.call(
        this.headerBlock,
        message,
        {
          onMessage: (body) => {
            events++;
            if (firstEventAt === undefined) firstEventAt = now();
            if (observe) {
              first ??= body;
              last = body;
            }
          },
          onEnd: (ok, error) => {
            const good = ok && events > 0;
            if (good && observe) {
              this.observe = undefined;
              observe(this.spec.shape === 'unary' ? { body: last, events } : { first, last, events });
            }
            done({ ok: good, events, firstEventAt, error: good ? undefined : (error ?? 'call ended without a message (gRPC error status)') });
          },
        },
        observe !== undefined,
      );
    };
    const conn = this.pool.get();
    if (conn instanceof H2GrpcConnection) go(conn);
    else conn.then(go, (error: Error) => done({ ok: false, events: 0, error: error.message }));
  }

  close(): void {
    // The pool owns the connection.
  }
}

const STREAM_START = Buffer.from('"streamStart"');
const STREAM_END = Buffer.from('"streamEnd"');
const ERROR_MEMBER = Buffer.from('"error"');

/** How one frame of our WebSocket binding ends or continues an operation. */
export function classifyA2aFrame(frame: Buffer, unary: boolean): 'start' | 'event' | 'end' | 'error' {
  if (unary) return frame.includes(ERROR_MEMBER) && !frame.includes('"result"') ? 'error' : 'end';
  if (frame.includes(STREAM_START)) return 'start';
  if (frame.includes(STREAM_END)) return 'end';
  if (frame.includes(ERROR_MEMBER) && !frame.includes('"result"')) return 'error';
  return 'event';
}

/**
 * WebSocket slot: sends a text frame and waits for what answers it. Raw ceiling: a fixed
 * number of messages. Our binding: one JSON-RPC response, or streamStart, events, streamEnd.
 */
class WsSlot implements Slot {
  private socket: WsClient | undefined;
  private opening: Promise<WsClient> | undefined;
  private current: { done: (o: OpOutcome) => void; events: number; firstEventAt?: bigint; first?: string; last?: string } | undefined;
  private readonly ws: NonNullable<RequestSpec['ws']>;
  private counter = 0;

  constructor(
    private readonly spec: RequestSpec,
    private readonly index: number,
    private observe: ObserveFirst | undefined,
  ) {
    this.ws = spec.ws!;
  }

  private finish(ok: boolean, error?: string): void {
    const op = this.current;
    if (!op) return;
    this.current = undefined;
    if (ok && this.observe) {
      const observe = this.observe;
      this.observe = undefined;
      observe(
        this.spec.shape === 'unary'
          ? { body: op.last === undefined ? undefined : Buffer.from(op.last), events: op.events }
          : { first: op.first, last: op.last, events: op.events },
      );
    }
    op.done({ ok, events: op.events, firstEventAt: op.firstEventAt, error });
  }

  private onFrame(data: Buffer): void {
    const op = this.current;
    if (!op) return;
    if (this.ws.framing === 'count') {
      op.events++;
      if (op.firstEventAt === undefined) op.firstEventAt = now();
      if (op.events >= this.ws.expectMessages) this.finish(true);
      return;
    }
    const kind = classifyA2aFrame(data, this.spec.shape === 'unary');
    if (kind === 'start') return;
    if (kind === 'error') {
      this.finish(false, `error frame: ${data.toString('utf8').slice(0, 200)}`);
      return;
    }
    if (kind === 'event' || this.spec.shape === 'unary') {
      op.events++;
      if (op.firstEventAt === undefined) op.firstEventAt = now();
      if (this.observe) {
        const text = data.toString('utf8');
        op.first ??= text;
        op.last = text;
      }
    }
    if (kind === 'end') this.finish(op.events > 0, op.events > 0 ? undefined : 'stream ended without an event');
  }

  private open(): Promise<WsClient> {
    this.opening ??= new Promise<WsClient>((resolve, reject) => {
      const { WebSocket } = require('ws') as typeof import('ws');
      const url = `ws://${this.spec.host}:${this.spec.port}${this.ws.path ?? '/'}`;
      const ws = new WebSocket(url, [...(this.ws.subprotocols ?? [])], { perMessageDeflate: false });
      ws.once('open', () => {
        this.socket = ws;
        this.opening = undefined;
        resolve(ws);
      });
      ws.once('error', (error) => {
        this.opening = undefined;
        reject(error);
      });
      ws.on('message', (data: Buffer) => this.onFrame(data));
      ws.on('close', (code) => {
        this.socket = undefined;
        this.finish(false, `websocket closed (${code})`);
      });
    });
    return this.opening;
  }

  run(done: (outcome: OpOutcome) => void): void {
    const text = this.ws.text.includes(ID_PLACEHOLDER)
      ? this.ws.text.replace(ID_PLACEHOLDER, String(this.index).padStart(4, '0') + String(++this.counter % 100_000_000).padStart(8, '0'))
      : this.ws.text;
    const go = (ws: WsClient) => {
      this.current = { done, events: 0 };
      ws.send(text);
    };
    if (this.socket && this.socket.readyState === this.socket.OPEN) go(this.socket);
    else this.open().then(go, (error: Error) => done({ ok: false, events: 0, error: error.message }));
  }

  close(): void {
    this.socket?.terminate();
    this.socket = undefined;
  }
}

/**
 * Builds `count` slots for a request; the first one reports its first operation to `observe`.
 * gRPC slots share one HTTP/2 connection; session slots share one Session call on one.
 */
export function createSlots(spec: RequestSpec, count: number, observe?: ObserveFirst): { slots: Slot[]; close: () => void } {
  const slots: Slot[] = [];
  let pool: H2Pool | undefined;
  let mux: SessionMux | undefined;
  if (spec.protocol === 'grpc') pool = new H2Pool(spec.host, spec.port);
  if (spec.protocol === 'grpc-session') mux = new SessionMux(spec);
  for (let i = 0; i < count; i++) {
    const o = i === 0 ? observe : undefined;
    if (spec.protocol === 'http') slots.push(new HttpSlot(spec, i, o));
    else if (spec.protocol === 'grpc-session') slots.push(new SessionSlot(spec, i, mux!, o));
    else if (spec.protocol === 'grpc') slots.push(new GrpcSlot(spec, i, pool!, o));
    else slots.push(new WsSlot(spec, i, o));
  }
  return {
    slots,
    close: () => {
      for (const s of slots) s.close();
      pool?.close();
      mux?.close();
    },
  };
}
