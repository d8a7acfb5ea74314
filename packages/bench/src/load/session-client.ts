import type { OpOutcome, Slot } from './closed-loop.js';
import { grpcRequestHeaderBlock } from './hpack-encode.js';
import { H2GrpcConnection } from './h2-grpc-client.js';
import { grpcPartOf, ID_PLACEHOLDER, type RequestSpec } from './job.js';
import { now, slotOperationId, type ObserveFirst } from './slot-support.js';

/** The kind of a `SessionResponse` frame (its `oneof frame` field: 2 event, 3 result, 4 end, 5 error). */
export type SessionFrameKind = 'event' | 'result' | 'end' | 'error' | 'none';

const FRAME_KINDS: Readonly<Record<number, SessionFrameKind>> = { 2: 'event', 3: 'result', 4: 'end', 5: 'error' };

/**
 * Reads just the correlation id (field 1) and the frame kind of a serialized
 * `SessionResponse`, without decoding the payload: the load client must stay far cheaper
 * than the server it measures. Throws on bytes that are not a protobuf message.
 */
export function peekSessionFrame(message: Buffer): { id: string; kind: SessionFrameKind } {
  let pos = 0;
  let id = '';
  let kind: SessionFrameKind = 'none';
  const varint = (): number => {
    let value = 0;
    let shift = 0;
    for (;;) {
      if (pos >= message.length) throw new Error('truncated varint');
      const b = message.readUInt8(pos++);
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
      shift += 7;
      if (shift > 63) throw new Error('varint too long');
    }
  };
  while (pos < message.length) {
    const tag = varint();
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (wire === 2) {
      const length = varint();
      if (pos + length > message.length) throw new Error('truncated field');
      if (field === 1) id = message.toString('latin1', pos, pos + length);
      else kind = FRAME_KINDS[field] ?? kind;
      pos += length;
    } else if (wire === 0) varint();
    else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else throw new Error(`unexpected wire type ${wire}`);
  }
  return { id, kind };
}

interface SessionOp {
  readonly done: (outcome: OpOutcome) => void;
  readonly keep: boolean;
  events: number;
  firstEventAt?: bigint;
  first?: Buffer;
  last?: Buffer;
}

/**
 * One `A2ASessionService/Session` call on one lean HTTP/2 connection, shared by every slot of
 * a job: each operation is one `SessionRequest` DATA frame tagged with its correlation id, and
 * answers are routed back by that id. The call is reopened (new connection) after it ends.
 */
export class SessionMux {
  private conn: H2GrpcConnection | undefined;
  private streamId = 0;
  private opening: Promise<void> | undefined;
  private readonly ops = new Map<string, SessionOp>();
  private readonly headerBlock: Buffer;
  private closed = false;

  constructor(private readonly spec: RequestSpec) {
    const grpc = grpcPartOf(spec);
    this.headerBlock = grpcRequestHeaderBlock(grpc.path, `${spec.host}:${spec.port}`, grpc.metadata);
  }

  private get open(): boolean {
    return this.conn?.alive === true && this.streamId !== 0;
  }

  private connect(): Promise<void> {
    this.opening ??= H2GrpcConnection.connect(this.spec.host, this.spec.port).then(
      (conn) => {
        this.conn = conn;
        this.opening = undefined;
        this.streamId = conn.openStream(this.headerBlock, {
          onMessage: (body) => this.onFrame(body ?? Buffer.alloc(0)),
          onEnd: (ok, error) => this.onEnd(ok ? 'the session ended (server closed the call)' : (error ?? 'session failed')),
        });
      },
      (error: Error) => {
        this.opening = undefined;
        throw error;
      },
    );
    return this.opening;
  }

  /** Starts one operation: `request` is a serialized SessionRequest whose correlation id is `id`. */
  start(id: string, request: Buffer, keep: boolean, done: (outcome: OpOutcome) => void): void {
    if (this.closed) {
      setImmediate(() => done({ ok: false, events: 0, error: 'session closed' }));
      return;
    }
    const go = () => {
      const conn = this.conn;
      if (!conn) return done({ ok: false, events: 0, error: 'the session connection is gone' });
      this.ops.set(id, { done, keep, events: 0 });
      conn.write(this.streamId, request);
    };
    if (this.open) go();
    else this.connect().then(go, (error: Error) => done({ ok: false, events: 0, error: error.message }));
  }

  private onFrame(message: Buffer): void {
    let frame: { id: string; kind: SessionFrameKind };
    try {
      frame = peekSessionFrame(message);
    } catch (error) {
      this.onEnd(`unreadable session frame: ${(error as Error).message}`);
      return;
    }
    const op = this.ops.get(frame.id);
    if (!op) return;
    if (frame.kind === 'event' || frame.kind === 'result') {
      op.events++;
      op.firstEventAt ??= now();
      if (op.keep) {
        op.first ??= message;
        op.last = message;
      }
    }
    if (frame.kind === 'event') return;
    this.ops.delete(frame.id);
    if (op.keep) this.lastObserved = { first: op.first, last: op.last, events: op.events };
    if (frame.kind === 'error') op.done({ ok: false, events: op.events, firstEventAt: op.firstEventAt, error: `session error frame for ${frame.id}` });
    else if (op.events === 0) op.done({ ok: false, events: 0, error: `session ${frame.kind} frame without an answer` });
    else op.done({ ok: true, events: op.events, firstEventAt: op.firstEventAt });
  }

  /** The first and last frame of the last completed operation that asked to keep them. */
  lastObserved: { first?: Buffer; last?: Buffer; events: number } | undefined;

  private onEnd(reason: string): void {
    const ops = [...this.ops.values()];
    this.ops.clear();
    this.streamId = 0;
    this.conn?.close();
    this.conn = undefined;
    for (const op of ops) op.done({ ok: false, events: op.events, error: reason });
  }

  /** Ends the connection; operations in flight fail. */
  close(): void {
    this.closed = true;
    this.onEnd('closed by client');
  }
}

/**
 * A closed-loop slot on a shared {@link SessionMux}: one operation in flight per slot, with
 * the slot's 12-digit id written as both the correlation id and the message id.
 */
export class SessionSlot implements Slot {
  private readonly bytes: Buffer;
  private readonly offsets: number[] = [];
  private counter = 0;

  constructor(
    private readonly spec: RequestSpec,
    private readonly index: number,
    private readonly mux: SessionMux,
    private observe: ObserveFirst | undefined,
  ) {
    this.bytes = Buffer.from(grpcPartOf(spec).messageB64, 'base64');
    for (let at = this.bytes.indexOf(ID_PLACEHOLDER, 0, 'latin1'); at >= 0; at = this.bytes.indexOf(ID_PLACEHOLDER, at + 1, 'latin1')) this.offsets.push(at);
  }

  run(done: (outcome: OpOutcome) => void): void {
    this.counter = (this.counter + 1) % 100_000_000;
    const id = slotOperationId(this.index, this.counter);
    // A fresh copy per operation: the frame may sit in the send queue while the next is built.
    const request = Buffer.from(this.bytes);
    for (const at of this.offsets) request.write(id, at, 'latin1');
    const observe = this.observe;
    this.mux.start(id, request, observe !== undefined, (outcome) => {
      const seen = this.mux.lastObserved;
      if (outcome.ok && observe && seen) {
        this.observe = undefined;
        this.mux.lastObserved = undefined;
        observe(this.spec.shape === 'unary' ? { body: seen.last, events: seen.events } : seen);
      }
      done(outcome);
    });
  }

  close(): void {
    // The mux owns the connection.
  }
}
