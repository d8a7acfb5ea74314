import {
  A2AError,
  A2AErrorCode,
  callContext,
  eventState,
  OPERATIONS,
  type CallContext,
  type EventStream,
  type Logger,
  type OperationName,
  type RequestHandler,
  resumeCursor,
  type StreamOperation,
  type UnaryOperation,
} from '@a2a-polyglot/core';
import { CancelTaskRequest, GetTaskRequest, ListTasksRequest, SendMessageRequest, SubscribeToTaskRequest, type TaskState } from '@a2a-polyglot/model';
import { SessionResponse, type SessionRequest } from '@a2a-polyglot/model/session';
import type { ServerDuplexStream } from '@grpc/grpc-js';
import { BackpressureWriter } from '../backpressure-writer.js';
import { asA2AError } from '../failure.js';
import { toGrpcError } from '../grpc-error.js';
import { extensionsMetadata, metadataHeaders } from '../metadata.js';
import { grpcPeer, type GrpcPeer } from '../peer.js';
import { UndecodableRequest } from '../safe-decode.js';
import { endFrame, errorFrame, eventFrame, NO_STATE, resultFrame } from './frames.js';

/** The core's unary operation of that name (the table is the single dispatch point). */
function unaryOp(name: OperationName): UnaryOperation {
  const op = OPERATIONS[name];
  if (op.kind !== 'unary') throw new A2AError(A2AErrorCode.Internal, `${name} is not unary`);
  return op;
}

/** The core's stream operation of that name. */
function streamOp(name: OperationName): StreamOperation {
  const op = OPERATIONS[name];
  if (op.kind !== 'stream') throw new A2AError(A2AErrorCode.Internal, `${name} is not a stream`);
  return op;
}

/** Per-session bounds. */
export interface SessionLimits {
  /** Operations open at once; one more gets an error frame RESOURCE_EXHAUSTED. */
  readonly maxOperations: number;
  /** Unflushed outbound frames before producers pause and client frames stop being read. */
  readonly maxBufferedFrames: number;
  /** Largest encoded frame (the server's max send message size). */
  readonly maxFrameBytes: number;
}

type Operation = NonNullable<SessionRequest['operation']>;

/** Abort reason of an operation that ended (its answer is written, or the session went away). */
const OPERATION_ENDED = Object.freeze({ reason: 'session operation ended' });

/** One open operation of a session. */
interface OpenOperation {
  readonly id: string;
  /** Aborts when the operation ends; made when the core first reads the context's signal. */
  controller?: AbortController;
  stream?: EventStream;
  /** The client asked to stop this stream (possibly before it was open). */
  unsubscribed: boolean;
  /** Its last frame (result / end / error) is written, or the session is going away. */
  finished: boolean;
  lastSeq: number;
  lastState: TaskState;
}

/**
 * The call type of the Session RPC: requests may be undecodable (see safe-decode); responses
 * are written pre-encoded, so each frame's size is known before grpc-js sees it.
 */
export type SessionCall = ServerDuplexStream<SessionRequest | UndecodableRequest, Buffer>;

/**
 * The server side of one bidirectional session: demultiplexes client frames into
 * operations on the core's RequestHandler and multiplexes their answers back, in bounded
 * memory.
 *
 * Bounds, all per session: at most `maxOperations` open operations; outbound frames go
 * through one {@link BackpressureWriter}, so while the client does not read, event streams
 * stop pulling from the event log (a paused stream costs a cursor), unary answers wait for
 * their turn holding their operation slot, and client frames stop being read (HTTP/2 flow
 * control then stops the client).
 *
 * Lifecycle: half-close ⇒ operations in flight run to their last frame, then the call ends
 * OK. Peer loss ⇒ every stream is closed at once (tasks keep running). Server shutdown ⇒
 * every open operation gets an UNAVAILABLE error frame, then the call ends UNAVAILABLE.
 */
export class ServerSession {
  private readonly ops = new Map<string, OpenOperation>();
  private readonly writer: BackpressureWriter<Buffer>;
  private readonly headers: Record<string, string>;
  /** Header lookup shared by the contexts of every operation (they carry the same service parameters). */
  private readonly headerOf: CallContext['header'];
  /** The peer's address and verified certificate, shared by every operation's context. */
  private readonly peer: GrpcPeer;
  private phase: 'open' | 'half-closed' | 'gone' = 'open';
  private metadataSent = false;
  private readingPaused = false;

  constructor(
    private readonly call: SessionCall,
    private readonly handler: RequestHandler,
    private readonly limits: SessionLimits,
    private readonly logger: Logger,
    private readonly onGone: (session: ServerSession) => void,
  ) {
    this.headers = metadataHeaders(call.metadata);
    this.headerOf = callContext('SESSION', this.headers).header;
    this.peer = grpcPeer(call);
    this.writer = new BackpressureWriter(call, limits.maxBufferedFrames);
    call.on('data', (frame: SessionRequest | UndecodableRequest) => this.onFrame(frame));
    call.on('end', () => this.onHalfClose());
    call.on('cancelled', () => this.onPeerGone());
  }

  /** Operations open right now. */
  get openOperations(): number {
    return this.ops.size;
  }

  /** Outbound frames handed to grpc-js and not flushed yet. */
  get pendingFrames(): number {
    return this.writer.pendingFrames;
  }

  /** Highest {@link pendingFrames} seen over the session's life. */
  get maxPendingFrames(): number {
    return this.writer.maxPending;
  }

  /** Frames written over the session's life. */
  get framesWritten(): number {
    return this.writer.written;
  }

  /** Server shutdown: an UNAVAILABLE error frame for every open operation, then the call ends UNAVAILABLE. */
  shutdown(): void {
    if (this.phase === 'gone') return;
    const error = new A2AError(A2AErrorCode.Unavailable, 'The server is shutting down');
    for (const op of this.ops.values()) {
      if (op.finished) continue;
      op.finished = true;
      this.write(errorFrame(op.id, error));
      this.release(op);
    }
    this.endWith(error);
  }

  // ---------------------------------------------------------------- inbound

  private onFrame(frame: SessionRequest | UndecodableRequest): void {
    if (this.phase !== 'open') return;
    if (frame instanceof UndecodableRequest) {
      this.endWith(frame.error);
      return;
    }
    const id = frame.correlationId;
    if (!id) {
      this.endWith(new A2AError(A2AErrorCode.InvalidRequest, 'Every session frame needs a correlation_id'));
      return;
    }
    const operation = frame.operation;
    if (operation?.$case === 'unsubscribe') {
      this.unsubscribe(id);
      return;
    }
    if (this.ops.has(id)) {
      this.endWith(new A2AError(A2AErrorCode.InvalidRequest, `correlation_id ${id} is already used by an open operation`));
      return;
    }
    if (!operation) {
      this.write(
        errorFrame(
          id,
          new A2AError(A2AErrorCode.InvalidParams, 'The frame carries no operation', { fieldViolations: [{ field: 'operation', description: 'required' }] }),
        ),
      );
    } else if (this.ops.size >= this.limits.maxOperations) {
      this.write(errorFrame(id, new A2AError(A2AErrorCode.ResourceExhausted, `Too many open operations on this session (limit ${this.limits.maxOperations})`)));
    } else {
      void this.run(id, operation);
    }
    this.throttleReading();
  }

  /** While the client is not reading our frames, stop reading its frames too. */
  private throttleReading(): void {
    if (this.readingPaused || this.writer.writable || this.phase !== 'open') return;
    this.readingPaused = true;
    this.call.pause();
    this.writer.onWritable(() => {
      this.readingPaused = false;
      if (this.phase === 'open') this.call.resume();
    });
  }

  private unsubscribe(id: string): void {
    // Unknown or already finished: ignored, the stream's own end frame may be on its way.
    const op = this.ops.get(id);
    if (!op) return;
    op.unsubscribed = true;
    op.stream?.close();
  }

  private onHalfClose(): void {
    if (this.phase !== 'open') return;
    this.phase = 'half-closed';
    this.maybeEnd();
  }

  private onPeerGone(): void {
    if (this.phase === 'gone') return;
    this.phase = 'gone';
    for (const op of this.ops.values()) {
      op.finished = true;
      this.release(op);
    }
    this.writer.close();
    this.onGone(this);
  }

  // ---------------------------------------------------------------- operations

  private async run(id: string, operation: Operation): Promise<void> {
    const op: OpenOperation = { id, controller: undefined, unsubscribed: false, finished: false, lastSeq: 0, lastState: NO_STATE };
    this.ops.set(id, op);
    const ctx: CallContext = {
      binding: 'SESSION',
      header: this.headerOf,
      ...this.peer,
      get signal(): AbortSignal {
        op.controller ??= new AbortController();
        return op.controller.signal;
      },
    };
    try {
      await this.dispatch(op, operation, ctx);
    } catch (error) {
      await this.finish(op, errorFrame(id, asA2AError(this.logger, error, `session ${operation.$case}`)), ctx);
    } finally {
      this.release(op);
      this.ops.delete(id);
      this.maybeEnd();
    }
  }

  private async dispatch(op: OpenOperation, operation: Operation, ctx: CallContext): Promise<void> {
    const h = this.handler;
    switch (operation.$case) {
      case 'send': {
        const request = operation.value.request ?? SendMessageRequest.fromPartial({});
        if (operation.value.streaming) return this.pump(op, streamOp('SendStreamingMessage').open(h, request, ctx), ctx);
        const response = await unaryOp('SendMessage').invoke(h, request, ctx);
        return this.finish(op, resultFrame(op.id, { $case: 'send', value: response }), ctx);
      }
      case 'subscribe': {
        const request = operation.value.request ?? SubscribeToTaskRequest.fromPartial({});
        const after = operation.value.resumeAfterSeq;
        return this.pump(op, streamOp('SubscribeToTask').open(h, request, ctx, resumeCursor(after, 'resumeAfterSeq')), ctx);
      }
      case 'cancel': {
        const task = await unaryOp('CancelTask').invoke(h, operation.value ?? CancelTaskRequest.fromPartial({}), ctx);
        return this.finish(op, resultFrame(op.id, { $case: 'task', value: task }), ctx);
      }
      case 'get': {
        const task = await unaryOp('GetTask').invoke(h, operation.value ?? GetTaskRequest.fromPartial({}), ctx);
        return this.finish(op, resultFrame(op.id, { $case: 'task', value: task }), ctx);
      }
      case 'list': {
        const list = await unaryOp('ListTasks').invoke(h, operation.value ?? ListTasksRequest.fromPartial({}), ctx);
        return this.finish(op, resultFrame(op.id, { $case: 'list', value: list }), ctx);
      }
      case 'unsubscribe':
        return; // handled in onFrame
    }
  }

  /** Streams events while the client keeps up, then the `end` frame. */
  private async pump(op: OpenOperation, opening: Promise<EventStream>, ctx: CallContext): Promise<void> {
    const stream = await opening;
    op.stream = stream;
    if (op.finished || op.unsubscribed) stream.close();
    for (;;) {
      await this.writer.ready();
      if (op.finished) return;
      // Every ready event at once; each still waits for room in the writer.
      const batch = await stream.nextBatch();
      if (!batch || op.finished) break;
      for (const { seq, event } of batch) {
        if (!this.writer.writable) await this.writer.ready();
        if (op.finished) return;
        op.lastSeq = seq;
        op.lastState = eventState(event) ?? op.lastState;
        this.sendMetadataOnce(ctx);
        if (!this.writeFor(op, eventFrame(op.id, event, seq))) return;
      }
    }
    await this.finish(op, endFrame(op.id, op.lastState, op.lastSeq), ctx);
  }

  /** Writes an operation's last frame when the writer allows (unless the session went away). */
  private async finish(op: OpenOperation, frame: SessionResponse, ctx: CallContext): Promise<void> {
    await this.writer.ready();
    if (op.finished) return;
    this.sendMetadataOnce(ctx);
    this.writeFor(op, frame);
    op.finished = true;
  }

  /** Encodes and writes a frame that needs no size check (error frames are small). */
  private write(frame: SessionResponse): void {
    this.writer.write(Buffer.from(SessionResponse.encode(frame).finish()));
  }

  /**
   * Encodes and writes one frame of an operation. A frame over the size limit would make
   * grpc-js end the whole call (every operation of the session); instead only this
   * operation fails, with PayloadTooLarge. Returns false when that happened.
   */
  private writeFor(op: OpenOperation, frame: SessionResponse): boolean {
    const bytes = Buffer.from(SessionResponse.encode(frame).finish());
    if (bytes.length <= this.limits.maxFrameBytes) {
      this.writer.write(bytes);
      return true;
    }
    op.finished = true;
    this.release(op);
    const what = frame.frame?.$case ?? 'frame';
    this.write(
      errorFrame(
        op.id,
        new A2AError(
          A2AErrorCode.PayloadTooLarge,
          `The ${what} frame (${bytes.length} bytes) exceeds the maximum message size of ${this.limits.maxFrameBytes} bytes`,
        ),
      ),
    );
    return false;
  }

  /**
   * Initial metadata echoes the activated extensions. Every operation of a session carries
   * the same service parameters, so the first answered operation decides for all.
   */
  private sendMetadataOnce(ctx: CallContext): void {
    if (this.metadataSent) return;
    this.metadataSent = true;
    const md = extensionsMetadata(ctx.activatedExtensions);
    if (md) this.call.sendMetadata(md);
  }

  private release(op: OpenOperation): void {
    // A reason, so no DOMException (with its stack trace) is built for every operation.
    op.controller?.abort(OPERATION_ENDED);
    op.stream?.close();
  }

  // ---------------------------------------------------------------- end of call

  private maybeEnd(): void {
    if (this.phase !== 'half-closed' || this.ops.size > 0) return;
    this.phase = 'gone';
    this.writer.close();
    this.call.end();
    this.onGone(this);
  }

  /** Ends the whole session with an error status (protocol violation or shutdown). */
  private endWith(error: A2AError): void {
    if (this.phase === 'gone') return;
    this.phase = 'gone';
    for (const op of this.ops.values()) {
      op.finished = true;
      this.release(op);
    }
    this.writer.close();
    this.call.emit('error', toGrpcError(error));
    this.onGone(this);
  }
}
