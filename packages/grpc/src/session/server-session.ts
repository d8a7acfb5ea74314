import {
  A2AError,
  A2AErrorCode,
  BoundedWriter,
  callContext,
  EventDelivery,
  type CallContext,
  type EventStream,
  type LoggedEvent,
  type Logger,
} from '@a2a-polyglot/core';
import { SessionResponse, type SessionRequest } from '@a2a-polyglot/model/session';
import type { ServerDuplexStream } from '@grpc/grpc-js';
import { GrpcCallSink } from '../call-sink.js';
import { asA2AError } from '../failure.js';
import { toGrpcError } from '../grpc-error.js';
import { extensionsMetadata, metadataHeaders } from '../metadata.js';
import { grpcPeer, type GrpcPeer } from '../peer.js';
import { UndecodableRequest } from '../safe-decode.js';
import { dispatchOperation, type SessionOperation } from './dispatch.js';
import { endFrame, errorFrame, eventFrame, resultFrame } from './frames.js';
import { type OpenOperation, openOperation, operationContext, releaseOperation } from './open-operation.js';
import type { RouteOperation } from './session-route.js';

/** Per-session bounds. */
export interface SessionLimits {
  /** Operations open at once; one more gets an error frame RESOURCE_EXHAUSTED. */
  readonly maxOperations: number;
  /** Unflushed outbound frames before producers pause and client frames stop being read. */
  readonly maxBufferedFrames: number;
  /** Largest encoded frame (the server's max send message size). */
  readonly maxFrameBytes: number;
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
 * through one {@link BoundedWriter} over the call ({@link GrpcCallSink}: at most
 * `maxBufferedFrames` unflushed), which every operation's {@link EventDelivery} (the core's one
 * delivery loop) writes into, so while the client does not read, event streams
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
  private readonly sink: GrpcCallSink<Buffer>;
  private readonly writer: BoundedWriter<readonly Buffer[]>;
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
    /** The agent of each operation (see `sessionRoute`). */
    private readonly route: RouteOperation,
    private readonly limits: SessionLimits,
    private readonly logger: Logger,
    private readonly onGone: (session: ServerSession) => void,
  ) {
    this.headers = metadataHeaders(call.metadata);
    this.headerOf = callContext('SESSION', this.headers).header;
    this.peer = grpcPeer(call);
    this.sink = new GrpcCallSink(call, limits.maxBufferedFrames);
    this.writer = new BoundedWriter(this.sink);
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
    return this.sink.pendingMessages;
  }

  /** Highest {@link pendingFrames} seen over the session's life. */
  get maxPendingFrames(): number {
    return this.sink.maxPending;
  }

  /** Frames written over the session's life. */
  get framesWritten(): number {
    return this.sink.written;
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
    if (this.readingPaused || this.writer.hasRoom() || this.phase !== 'open') return;
    this.readingPaused = true;
    this.call.pause();
    this.writer.whenRoom(() => {
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
    if (!this.becomeGone()) return;
    this.onGone(this);
  }

  /** Releases every open operation and closes the writer, once; false when the session was already gone. */
  private becomeGone(): boolean {
    if (this.phase === 'gone') return false;
    this.phase = 'gone';
    for (const op of this.ops.values()) {
      op.finished = true;
      this.release(op);
    }
    this.writer.close();
    return true;
  }

  // ---------------------------------------------------------------- operations

  private async run(id: string, operation: SessionOperation): Promise<void> {
    const op = openOperation(id);
    this.ops.set(id, op);
    const { handler, tenant } = this.route(operation);
    const ctx = operationContext(op, this.headerOf, this.peer, tenant);
    try {
      await dispatchOperation(handler, operation, ctx, {
        stream: (opening) => this.pump(op, opening, ctx),
        result: (result) => this.finish(op, resultFrame(id, result), ctx),
      });
    } catch (error) {
      await this.finish(op, errorFrame(id, asA2AError(this.logger, error, `session ${operation.$case}`)), ctx);
    } finally {
      this.release(op);
      this.ops.delete(id);
      this.maybeEnd();
    }
  }

  /**
   * Streams events while the client keeps up, then the `end` frame: the core's
   * {@link EventDelivery} into the session's writer, stopped at once when the operation
   * finished (session gone, shutdown). An event frame over the size limit fails only this
   * operation ({@link failTooLarge}); a failing stream, with an error frame ({@link run}).
   */
  private async pump(op: OpenOperation, opening: Promise<EventStream>, ctx: CallContext): Promise<void> {
    const stream = await opening;
    op.stream = stream;
    if (op.finished || op.unsubscribed) stream.close();
    let tooLarge: A2AError | undefined;
    const delivery = new EventDelivery(stream, this.writer, {
      encode: ({ seq, event }: LoggedEvent) => {
        const bytes = this.encode(eventFrame(op.id, event, seq));
        if (bytes instanceof A2AError) {
          tooLarge = bytes;
          throw bytes;
        }
        return bytes;
      },
      onFirst: () => this.sendMetadataOnce(ctx),
      isOpen: () => !op.finished,
    });
    const { end, error, lastSeq, lastState } = await delivery.run();
    op.lastSeq = lastSeq ?? op.lastSeq;
    op.lastState = lastState ?? op.lastState;
    if (error !== undefined && error === tooLarge) this.failTooLarge(op, error);
    else if (error !== undefined) throw error;
    else if (end === 'done') await this.finish(op, endFrame(op.id, op.lastState, op.lastSeq), ctx);
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
    this.writer.write([Buffer.from(SessionResponse.encode(frame).finish())]);
  }

  /**
   * Encodes and writes one frame of an operation. Returns false when the frame was over the
   * size limit and only this operation failed ({@link failTooLarge}).
   */
  private writeFor(op: OpenOperation, frame: SessionResponse): boolean {
    const bytes = this.encode(frame);
    if (bytes instanceof A2AError) {
      this.failTooLarge(op, bytes);
      return false;
    }
    this.writer.write([bytes]);
    return true;
  }

  /**
   * One frame of an operation encoded, or the PayloadTooLarge error when it is over the size
   * limit: grpc-js would end the whole call (every operation of the session) on it.
   */
  private encode(frame: SessionResponse): Buffer | A2AError {
    const bytes = Buffer.from(SessionResponse.encode(frame).finish());
    if (bytes.length <= this.limits.maxFrameBytes) return bytes;
    const what = frame.frame?.$case ?? 'frame';
    return new A2AError(
      A2AErrorCode.PayloadTooLarge,
      `The ${what} frame (${bytes.length} bytes) exceeds the maximum message size of ${this.limits.maxFrameBytes} bytes`,
    );
  }

  /** Only this operation fails: its stream is released and its error frame written at once. */
  private failTooLarge(op: OpenOperation, error: A2AError): void {
    op.finished = true;
    this.release(op);
    this.write(errorFrame(op.id, error));
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
    releaseOperation(op);
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
    if (!this.becomeGone()) return;
    this.call.emit('error', toGrpcError(error));
    this.onGone(this);
  }
}
