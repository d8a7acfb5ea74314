import type { WebSocket as WsClient } from 'ws';
import type { OpOutcome, Slot } from './closed-loop.js';
import { ID_PLACEHOLDER, wsPartOf, type RequestSpec } from './job.js';
import { now, slotOperationId, type ObserveFirst } from './slot-support.js';

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
export class WsSlot implements Slot {
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
    this.ws = wsPartOf(spec);
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
    const text = this.ws.text.includes(ID_PLACEHOLDER) ? this.ws.text.replace(ID_PLACEHOLDER, slotOperationId(this.index, ++this.counter)) : this.ws.text;
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
