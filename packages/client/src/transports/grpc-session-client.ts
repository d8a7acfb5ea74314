import { A2AError, A2AErrorCode, codeFromGrpcStatus } from '@a2a-polyglot/core';
import {
  CancelTaskRequest,
  GetTaskRequest,
  ListTasksRequest,
  SendMessageRequest,
  SubscribeToTaskRequest,
  type DeepPartial,
  type ListTasksResponse,
  type SendMessageResponse,
  type Task,
} from '@a2a-polyglot/model';
import { A2ASessionServiceService, type SessionRequest, type SessionResponse } from '@a2a-polyglot/model/session';
import { Client, status as GrpcCode, type ClientDuplexStream, type Metadata, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { AsyncQueue } from './grpc-async-queue.js';
import { echoedExtensions, requestMetadata, resolveTarget, type GrpcClientOptions } from './grpc-channel.js';
import { fromGrpcError } from './grpc-error.js';
import { errorFromFrame, SessionStream, type SessionStreamEvent } from './grpc-session-stream.js';

/** Options of {@link GrpcSessionClient}. */
export interface GrpcSessionClientOptions extends GrpcClientOptions {
  /**
   * Events buffered client-side (all streams together) before the client stops reading
   * the call, which makes HTTP/2 flow control pause the server. Default 256.
   */
  readonly maxBufferedEvents?: number;
}

/** What the client does with the frames of one correlation id. */
interface Pending {
  onFrame(frame: NonNullable<SessionResponse['frame']>): void;
  onSessionEnd(error: A2AError): void;
}

/**
 * Client of the EXPERIMENTAL session service: one bidirectional call carrying any number of
 * concurrent operations, each with its own correlation id. Streams are async iterables with
 * event numbers for gap-free resubscription (`subscribe(req, { resumeAfterSeq })`).
 */
export class GrpcSessionClient {
  private readonly client: Client;
  private readonly call: ClientDuplexStream<SessionRequest, SessionResponse>;
  private readonly pending = new Map<string, Pending>();
  private readonly maxBuffered: number;
  private nextId = 1;
  private buffered = 0;
  private paused = false;
  private headers: Metadata | undefined;
  private status: StatusObject | undefined;
  private endError: A2AError | undefined;
  private ended = false;
  private halfClosed = false;
  private resolveClosed!: (error: A2AError | undefined) => void;
  /** Resolves when the session call is over: undefined for a clean end, else the session-level error. */
  readonly closed: Promise<A2AError | undefined>;

  constructor(options: GrpcSessionClientOptions) {
    const { target, credentials } = resolveTarget(options.url, options.credentials);
    this.client = new Client(target, credentials, { ...options.channelOptions });
    this.maxBuffered = options.maxBufferedEvents ?? 256;
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    const method = A2ASessionServiceService.session;
    this.call = this.client.makeBidiStreamRequest(method.path, method.requestSerialize, method.responseDeserialize, requestMetadata(options));
    this.call.on('metadata', (md: Metadata) => (this.headers = md));
    this.call.on('data', (frame: SessionResponse) => this.onFrame(frame));
    // Status arrives before buffered frames are consumed; settle only after 'end' (all read).
    this.call.on('status', (status: StatusObject) => {
      this.status = status;
      this.maybeSettle();
    });
    this.call.on('error', (error: ServiceError) => (this.endError = fromGrpcError(error)));
    this.call.on('end', () => {
      this.ended = true;
      this.maybeSettle();
    });
  }

  /** Extensions the server activated (echoed `a2a-extensions`), once headers arrived. */
  get activatedExtensions(): readonly string[] {
    return echoedExtensions(this.headers);
  }

  /** Operations waiting for their last frame. */
  get openOperations(): number {
    return this.pending.size;
  }

  /** SendMessage over the session. */
  send(request: DeepPartial<SendMessageRequest>): Promise<SendMessageResponse> {
    return this.unary({ $case: 'send', value: { request: SendMessageRequest.fromPartial(request), streaming: false } }, 'send');
  }

  /** SendStreamingMessage over the session. */
  sendStreaming(request: DeepPartial<SendMessageRequest>): SessionStream {
    return this.stream({ $case: 'send', value: { request: SendMessageRequest.fromPartial(request), streaming: true } });
  }

  /** SubscribeToTask; with `resumeAfterSeq`, exactly the events after that number (no snapshot) while the log holds them. */
  subscribe(request: DeepPartial<SubscribeToTaskRequest>, options: { resumeAfterSeq?: number } = {}): SessionStream {
    const resumeAfterSeq = options.resumeAfterSeq === undefined ? undefined : String(options.resumeAfterSeq);
    return this.stream({ $case: 'subscribe', value: { request: SubscribeToTaskRequest.fromPartial(request), resumeAfterSeq } });
  }

  cancel(request: DeepPartial<CancelTaskRequest>): Promise<Task> {
    return this.unary({ $case: 'cancel', value: CancelTaskRequest.fromPartial(request) }, 'task');
  }

  get(request: DeepPartial<GetTaskRequest>): Promise<Task> {
    return this.unary({ $case: 'get', value: GetTaskRequest.fromPartial(request) }, 'task');
  }

  list(request: DeepPartial<ListTasksRequest> = {}): Promise<ListTasksResponse> {
    return this.unary({ $case: 'list', value: ListTasksRequest.fromPartial(request) }, 'list');
  }

  /** Stops a stream (by object or correlation id); the task keeps running. */
  unsubscribe(stream: SessionStream | string): void {
    const correlationId = typeof stream === 'string' ? stream : stream.correlationId;
    if (!this.pending.has(correlationId) || this.halfClosed || this.status) return;
    this.call.write({ correlationId, operation: { $case: 'unsubscribe', value: {} } });
  }

  /**
   * Half-closes the session: no new operations; the server finishes the ones in flight
   * (streams run to their end), then ends the call. Resolves like {@link closed}.
   */
  close(): Promise<A2AError | undefined> {
    if (!this.halfClosed) {
      this.halfClosed = true;
      this.call.end();
    }
    return this.closed;
  }

  /** Drops the session at once (the server closes its streams; tasks keep running). */
  destroy(): void {
    this.call.cancel();
    this.client.close();
  }

  // ---------------------------------------------------------------- internals

  private unary<C extends 'send' | 'task' | 'list'>(operation: NonNullable<SessionRequest['operation']>, expect: C) {
    type Result = C extends 'send' ? SendMessageResponse : C extends 'task' ? Task : ListTasksResponse;
    return new Promise<Result>((resolve, reject) => {
      const id = this.open(operation, {
        onFrame: (frame) => {
          this.pending.delete(id);
          if (frame.$case === 'result' && frame.value.result?.$case === expect) resolve(frame.value.result.value as Result);
          else if (frame.$case === 'error') reject(errorFromFrame(frame.value));
          else reject(new A2AError(A2AErrorCode.InvalidAgentResponse, `Unexpected ${frame.$case} frame for a ${operation.$case} operation`));
        },
        onSessionEnd: reject,
      });
    });
  }

  private stream(operation: NonNullable<SessionRequest['operation']>): SessionStream {
    const queue = new AsyncQueue<SessionStreamEvent>(
      () => this.took(),
      () => this.unsubscribe(id),
    );
    let stream!: SessionStream;
    const id = this.open(operation, {
      onFrame: (frame) => {
        if (frame.$case === 'event') {
          if (!frame.value.event) return;
          this.buffered++;
          stream.deliver({ seq: Number(frame.value.seq), event: frame.value.event });
          this.throttle();
          return;
        }
        this.pending.delete(id);
        if (frame.$case === 'end') stream.finish({ state: frame.value.state, lastSeq: Number(frame.value.lastSeq) });
        else if (frame.$case === 'error') stream.fail(errorFromFrame(frame.value));
        else stream.fail(new A2AError(A2AErrorCode.InvalidAgentResponse, `Unexpected ${frame.$case} frame for a stream operation`));
      },
      onSessionEnd: (error) => stream.fail(error),
    });
    stream = new SessionStream(id, queue, () => this.unsubscribe(id));
    return stream;
  }

  /** Registers an operation and sends its frame; a closed session fails it at once. */
  private open(operation: NonNullable<SessionRequest['operation']>, pending: Pending): string {
    const correlationId = String(this.nextId++);
    if (this.halfClosed || this.status) {
      const error = this.endError ?? new A2AError(A2AErrorCode.Unavailable, 'The session is closed');
      queueMicrotask(() => pending.onSessionEnd(error));
      return correlationId;
    }
    this.pending.set(correlationId, pending);
    this.call.write({ correlationId, operation });
    return correlationId;
  }

  private onFrame(frame: SessionResponse): void {
    const pending = this.pending.get(frame.correlationId);
    if (pending && frame.frame) pending.onFrame(frame.frame);
  }

  /** Client-side flow control: stop reading while consumers lag. */
  private throttle(): void {
    if (!this.paused && this.buffered >= this.maxBuffered) {
      this.paused = true;
      this.call.pause();
    }
  }

  private took(): void {
    this.buffered--;
    if (this.paused && this.buffered < this.maxBuffered / 2) {
      this.paused = false;
      this.call.resume();
    }
  }

  private maybeSettle(): void {
    if (!this.status || !this.ended) return;
    const error =
      this.status.code === GrpcCode.OK ? undefined : (this.endError ?? new A2AError(codeFromGrpcStatus(this.status.code), this.status.details || undefined));
    const forPending = error ?? new A2AError(A2AErrorCode.Unavailable, 'The session ended before the operation finished');
    for (const p of [...this.pending.values()]) p.onSessionEnd(forPending);
    this.pending.clear();
    this.client.close();
    this.resolveClosed(error);
  }
}
