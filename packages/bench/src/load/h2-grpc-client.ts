import { connect, type Socket } from 'node:net';
import { GrpcMessageReader } from './grpc-message-reader.js';
import { clientPreface, DEFAULT_WINDOW, FLAG, FRAME, frameHeader, grpcDataFrame } from './h2-frames.js';

/** Callbacks of one gRPC call on an {@link H2GrpcConnection}. */
export interface GrpcCallSink {
  /** A complete length-prefixed gRPC message arrived (`body` only when the call asked to keep it). */
  onMessage(body: Buffer | undefined): void;
  /**
   * The call ended: `ok` when the server closed the stream normally (END_STREAM on the
   * trailers); false on RST_STREAM, GOAWAY or a closed connection.
   */
  onEnd(ok: boolean, error?: string): void;
}

interface CallState {
  readonly sink: GrpcCallSink;
  readonly reader: GrpcMessageReader;
}

/**
 * A lean HTTP/2 client speaking just enough gRPC for load generation, over a bare
 * `net.Socket`. Why not grpc-js or node:http2: on this machine kind their clients cost about
 * 300 and 150 µs of CPU per call, which would make the client, not the server, the limit.
 * This one writes one pre-encoded HEADERS + DATA pair per call and parses frames without
 * decoding response headers (no HPACK decoder: a call ends at END_STREAM; a call that got no
 * message is treated as failed by its caller). Flow control: the receive windows are opened
 * to the maximum up front; the connection send window is honoured.
 */
export class H2GrpcConnection {
  private nextStreamId = 1;
  private readonly calls = new Map<number, CallState>();
  private sendWindow = DEFAULT_WINDOW;
  private readonly queue: Array<{ frames: Buffer; dataLength: number }> = [];
  private received = 0;
  private pending: Buffer | undefined;
  private dead: string | undefined;
  /** The server's SETTINGS_MAX_CONCURRENT_STREAMS (Infinity when not sent). */
  maxConcurrentStreams = Number.POSITIVE_INFINITY;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error) => this.kill(error.message));
    socket.on('close', () => this.kill('connection closed'));
  }

  /** Connects, sends the preface and our SETTINGS, and waits for the server's SETTINGS. */
  static connect(host: string, port: number, timeoutMs = 5000): Promise<H2GrpcConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port, noDelay: true });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`h2 connect to ${host}:${port} timed out`));
      }, timeoutMs);
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.once('connect', () => {
        const conn = new H2GrpcConnection(socket);
        conn.onSettings = () => {
          clearTimeout(timer);
          resolve(conn);
        };
        socket.write(clientPreface());
      });
    });
  }

  private onSettings: (() => void) | undefined;

  /** False once the connection failed or closed. */
  get alive(): boolean {
    return this.dead === undefined;
  }

  /** Calls in flight. */
  get inFlight(): number {
    return this.calls.size;
  }

  /**
   * Starts a call: `headerBlock` from `grpcRequestHeaderBlock`, `message` the serialized
   * request (a gRPC length prefix is added). `keep` keeps message bodies for checking.
   */
  call(headerBlock: Buffer, message: Buffer, sink: GrpcCallSink, keep = false): number {
    const id = this.startCall(sink, keep);
    if (id !== 0) this.sendData(grpcDataFrame(id, message, true), headersFrame(id, headerBlock));
    return id;
  }

  /**
   * Opens a bidirectional call (HEADERS without END_STREAM) for {@link write}: the session
   * service keeps one call open and multiplexes operations over it. Messages are always
   * kept, because the caller must read each one's correlation id. Stream-level flow control
   * is not tracked: a load client keeps far less than one 64 KiB window in flight, and the
   * server reopens it as it reads.
   */
  openStream(headerBlock: Buffer, sink: GrpcCallSink): number {
    const id = this.startCall(sink, true);
    if (id !== 0) this.socket.write(headersFrame(id, headerBlock));
    return id;
  }

  /** Registers a call on the next client stream id; 0 (and the sink told it ended) when the connection is dead. */
  private startCall(sink: GrpcCallSink, keep: boolean): number {
    if (this.dead) {
      sink.onEnd(false, this.dead);
      return 0;
    }
    const id = this.nextStreamId;
    this.nextStreamId += 2;
    this.calls.set(id, { sink, reader: new GrpcMessageReader(keep, (body) => sink.onMessage(body)) });
    return id;
  }

  /** Writes one length-prefixed message on a call opened by {@link openStream}. */
  write(streamId: number, message: Buffer): void {
    if (this.dead || !this.calls.has(streamId)) return;
    this.sendData(grpcDataFrame(streamId, message, false));
  }

  /**
   * Writes a DATA frame (after `before`, e.g. the call's HEADERS, which flow control does not
   * count) when the connection send window allows, else queues it behind those already waiting.
   */
  private sendData(data: Buffer, before?: Buffer): void {
    const dataLength = data.length - 9;
    const frames = before ? Buffer.concat([before, data]) : data;
    if (this.queue.length > 0 || this.sendWindow < dataLength) this.queue.push({ frames, dataLength });
    else {
      this.sendWindow -= dataLength;
      this.socket.write(frames);
    }
  }

  /** Cancels a call (RST_STREAM CANCEL); its sink is told it ended, not ok. */
  cancel(streamId: number): void {
    const call = this.calls.get(streamId);
    if (!call) return;
    this.calls.delete(streamId);
    const code = Buffer.alloc(4);
    code.writeUInt32BE(0x8, 0);
    if (!this.dead) this.socket.write(Buffer.concat([frameHeader(4, FRAME.RST_STREAM, 0, streamId), code]));
    call.sink.onEnd(false, 'cancelled');
  }

  /** Closes the connection; calls in flight end, not ok. */
  close(): void {
    this.socket.destroy();
    this.kill('closed by client');
  }

  private kill(reason: string): void {
    if (this.dead) return;
    this.dead = reason;
    const calls = [...this.calls.values()];
    this.calls.clear();
    for (const call of calls) call.sink.onEnd(false, reason);
  }

  private onData(chunk: Buffer): void {
    let data = chunk;
    if (this.pending) {
      data = Buffer.concat([this.pending, chunk]);
      this.pending = undefined;
    }
    let pos = 0;
    while (data.length - pos >= 9) {
      const length = data.readUIntBE(pos, 3);
      if (data.length - pos < 9 + length) break;
      const type = data.readUInt8(pos + 3);
      const flags = data.readUInt8(pos + 4);
      const streamId = data.readUInt32BE(pos + 5) & 0x7fffffff;
      this.onFrame(type, flags, streamId, data.subarray(pos + 9, pos + 9 + length));
      pos += 9 + length;
    }
    if (pos < data.length) this.pending = data.subarray(pos);
  }

  private onFrame(type: number, flags: number, streamId: number, payload: Buffer): void {
    switch (type) {
      case FRAME.DATA: {
        this.received += payload.length;
        if (this.received > 2 ** 30) {
          const update = Buffer.alloc(4);
          update.writeUInt32BE(this.received, 0);
          this.socket.write(Buffer.concat([frameHeader(4, FRAME.WINDOW_UPDATE, 0, 0), update]));
          this.received = 0;
        }
        const call = this.calls.get(streamId);
        if (!call) return;
        let body = payload;
        if (flags & FLAG.PADDED) body = payload.subarray(1, payload.length - payload.readUInt8(0));
        call.reader.push(body);
        if (flags & FLAG.END_STREAM) this.finish(streamId, true);
        return;
      }
      case FRAME.HEADERS:
        if (flags & FLAG.END_STREAM) this.finish(streamId, true);
        return;
      case FRAME.RST_STREAM:
        this.finish(streamId, false, `RST_STREAM ${payload.length >= 4 ? payload.readUInt32BE(0) : '?'}`);
        return;
      case FRAME.SETTINGS:
        if (flags & FLAG.ACK) return;
        for (let i = 0; i + 6 <= payload.length; i += 6) {
          const id = payload.readUInt16BE(i);
          const value = payload.readUInt32BE(i + 2);
          if (id === 0x3) this.maxConcurrentStreams = value;
        }
        this.socket.write(frameHeader(0, FRAME.SETTINGS, FLAG.ACK, 0));
        this.onSettings?.();
        this.onSettings = undefined;
        return;
      case FRAME.PING:
        if (!(flags & FLAG.ACK)) this.socket.write(Buffer.concat([frameHeader(8, FRAME.PING, FLAG.ACK, 0), payload]));
        return;
      case FRAME.GOAWAY:
        this.kill('GOAWAY');
        this.socket.destroy();
        return;
      case FRAME.WINDOW_UPDATE:
        if (streamId === 0) {
          this.sendWindow += payload.readUInt32BE(0) & 0x7fffffff;
          this.flushQueue();
        }
        return;
      default:
        return; // CONTINUATION, PRIORITY, unknown: nothing to do for a load client
    }
  }

  private flushQueue(): void {
    for (let next = this.queue[0]; next !== undefined && this.sendWindow >= next.dataLength; next = this.queue[0]) {
      this.queue.shift();
      this.sendWindow -= next.dataLength;
      this.socket.write(next.frames);
    }
  }

  private finish(streamId: number, ok: boolean, error?: string): void {
    const call = this.calls.get(streamId);
    if (!call) return;
    this.calls.delete(streamId);
    call.sink.onEnd(ok, error);
  }
}

/** The HEADERS frame that opens stream `id` with a pre-encoded header block. */
function headersFrame(id: number, headerBlock: Buffer): Buffer {
  return Buffer.concat([frameHeader(headerBlock.length, FRAME.HEADERS, FLAG.END_HEADERS, id), headerBlock]);
}
