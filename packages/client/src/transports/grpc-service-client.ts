import { A2AError, GRPC_METADATA, OPERATIONS, type OperationName, type OperationRequest, type OperationResponse } from '@a2a-polyglot/core';
import type { DeepPartial, StreamResponse } from '@a2a-polyglot/model';
import { A2AServiceService } from '@a2a-polyglot/model/grpc';
import { Client, type ClientReadableStream, type Metadata, type ServiceError } from '@grpc/grpc-js';
import { abortedError, callOptions, echoedExtensions, requestMetadata, resolveTarget, type GrpcCallOptions, type GrpcClientOptions } from './grpc-channel.js';
import { fromGrpcError, isServiceError } from './grpc-error.js';

type Methods = typeof A2AServiceService;
type UnaryKey = { [K in keyof Methods]: Methods[K]['responseStream'] extends true ? never : K }[keyof Methods];
type StreamKey = Exclude<keyof Methods, UnaryKey>;
type RequestOf<K extends keyof Methods> = Parameters<Methods[K]['requestSerialize']>[0];
type ResponseOf<K extends keyof Methods> = ReturnType<Methods[K]['responseDeserialize']>;
/** The request of operation `N` as callers may give it: partial (proto defaults fill the rest). Types from core's one operation table. */
type PartialRequest<N extends OperationName> = DeepPartial<OperationRequest<N>>;
/** What unary operation `N` resolves to. */
type Answer<N extends OperationName> = Promise<OperationResponse<N>>;

/** One event of a stream, with its event number when the client can know it. */
export interface GrpcStreamEvent<E = StreamResponse> {
  /**
   * The event's number in the task's event log (resume with `lastEventId`). Derived from the
   * server's `a2a-stream-first-seq` metadata by counting; undefined if the server sent none,
   * or after a mid-stream Task snapshot (the server resynchronised, numbering jumped).
   */
  readonly seq: number | undefined;
  readonly event: E;
}

/** A server stream as an async iterable; iterate once. */
export interface GrpcEventStream<E = StreamResponse> extends AsyncIterable<GrpcStreamEvent<E>> {
  /** Stops delivery (iteration ends quietly). The task keeps running. */
  cancel(): void;
  /** Number of the last event received, when known (see {@link GrpcStreamEvent.seq}). */
  readonly lastSeq: number | undefined;
  /** Extensions the server activated (echoed `a2a-extensions`), once headers arrived. */
  readonly activatedExtensions: readonly string[];
}

/** Options of {@link GrpcTransport.subscribeToTask}. */
export interface SubscribeOptions extends GrpcCallOptions {
  /** Resume after this event number (sent as `a2a-last-event-id` metadata). */
  readonly lastEventId?: number;
}

/**
 * Client of the standard `lf.a2a.v1.A2AService`: one typed method per operation, streams
 * as async iterables, every failure an {@link A2AError} rebuilt from the
 * `grpc-status-details-bin` ErrorInfo (falling back to the status code), and
 * `a2a-version: 1.0` on every call. Requests accept partial messages (proto defaults fill
 * the rest).
 */
export class GrpcTransport {
  private readonly client: Client;

  constructor(private readonly options: GrpcClientOptions) {
    const { target, credentials } = resolveTarget(options.url, options.credentials);
    this.client = new Client(target, credentials, { ...options.channelOptions });
  }

  sendMessage(request: PartialRequest<'SendMessage'>, opts?: GrpcCallOptions): Answer<'SendMessage'> {
    return this.unary('sendMessage', OPERATIONS.SendMessage.request.fromPartial(request), opts);
  }

  sendStreamingMessage(request: PartialRequest<'SendStreamingMessage'>, opts?: GrpcCallOptions): GrpcEventStream {
    return this.stream('sendStreamingMessage', OPERATIONS.SendStreamingMessage.request.fromPartial(request), opts);
  }

  getTask(request: PartialRequest<'GetTask'>, opts?: GrpcCallOptions): Answer<'GetTask'> {
    return this.unary('getTask', OPERATIONS.GetTask.request.fromPartial(request), opts);
  }

  listTasks(request: PartialRequest<'ListTasks'> = {}, opts?: GrpcCallOptions): Answer<'ListTasks'> {
    return this.unary('listTasks', OPERATIONS.ListTasks.request.fromPartial(request), opts);
  }

  cancelTask(request: PartialRequest<'CancelTask'>, opts?: GrpcCallOptions): Answer<'CancelTask'> {
    return this.unary('cancelTask', OPERATIONS.CancelTask.request.fromPartial(request), opts);
  }

  subscribeToTask(request: PartialRequest<'SubscribeToTask'>, opts: SubscribeOptions = {}): GrpcEventStream {
    const extra: Record<string, string> = opts.lastEventId === undefined ? {} : { [GRPC_METADATA.lastEventId]: String(opts.lastEventId) };
    return this.stream('subscribeToTask', OPERATIONS.SubscribeToTask.request.fromPartial(request), opts, extra);
  }

  createTaskPushNotificationConfig(
    request: PartialRequest<'CreateTaskPushNotificationConfig'>,
    opts?: GrpcCallOptions,
  ): Answer<'CreateTaskPushNotificationConfig'> {
    return this.unary('createTaskPushNotificationConfig', OPERATIONS.CreateTaskPushNotificationConfig.request.fromPartial(request), opts);
  }

  getTaskPushNotificationConfig(request: PartialRequest<'GetTaskPushNotificationConfig'>, opts?: GrpcCallOptions): Answer<'GetTaskPushNotificationConfig'> {
    return this.unary('getTaskPushNotificationConfig', OPERATIONS.GetTaskPushNotificationConfig.request.fromPartial(request), opts);
  }

  listTaskPushNotificationConfigs(
    request: PartialRequest<'ListTaskPushNotificationConfigs'>,
    opts?: GrpcCallOptions,
  ): Answer<'ListTaskPushNotificationConfigs'> {
    return this.unary('listTaskPushNotificationConfigs', OPERATIONS.ListTaskPushNotificationConfigs.request.fromPartial(request), opts);
  }

  async deleteTaskPushNotificationConfig(request: PartialRequest<'DeleteTaskPushNotificationConfig'>, opts?: GrpcCallOptions): Promise<void> {
    await this.unary('deleteTaskPushNotificationConfig', OPERATIONS.DeleteTaskPushNotificationConfig.request.fromPartial(request), opts);
  }

  getExtendedAgentCard(request: PartialRequest<'GetExtendedAgentCard'> = {}, opts?: GrpcCallOptions): Answer<'GetExtendedAgentCard'> {
    return this.unary('getExtendedAgentCard', OPERATIONS.GetExtendedAgentCard.request.fromPartial(request), opts);
  }

  /** Closes the channel; calls in flight are cancelled. */
  close(): void {
    this.client.close();
  }

  /**
   * Calls a unary method of another service on this channel, with the same metadata, abort and
   * error handling: the A2A v0.3 service `a2a.v1.A2AService`, for clients of v0.3 agents.
   */
  callUnary<Req, Res>(method: GrpcMethod<Req, Res>, request: Req, opts: GrpcCallOptions = {}): Promise<Res> {
    return new Promise((resolve, reject) => {
      if (opts.signal?.aborted) return reject(abortedError());
      let aborted = false;
      const call = this.client.makeUnaryRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request,
        requestMetadata(this.options, opts),
        callOptions(opts),
        (error: ServiceError | null, response?: Res) => {
          opts.signal?.removeEventListener('abort', onAbort);
          if (aborted) reject(abortedError());
          else if (error) reject(fromGrpcError(error));
          else resolve(response as Res);
        },
      );
      const onAbort = () => {
        aborted = true;
        call.cancel();
      };
      opts.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Opens a server-streaming method of another service on this channel (see {@link callUnary}). */
  callStream<Req, E>(method: GrpcMethod<Req, E>, request: Req, opts: GrpcCallOptions = {}, extra: Record<string, string> = {}): GrpcEventStream<E> {
    const call = this.client.makeServerStreamRequest(
      method.path,
      method.requestSerialize,
      method.responseDeserialize,
      request,
      requestMetadata(this.options, opts, extra),
      callOptions(opts),
    );
    return new ClientEventStream<E>(call, opts.signal);
  }

  private unary<K extends UnaryKey>(key: K, request: RequestOf<K>, opts: GrpcCallOptions = {}): Promise<ResponseOf<K>> {
    return this.callUnary(A2AServiceService[key] as unknown as GrpcMethod<RequestOf<K>, ResponseOf<K>>, request, opts);
  }

  private stream<K extends StreamKey>(key: K, request: RequestOf<K>, opts: GrpcCallOptions = {}, extra: Record<string, string> = {}): GrpcEventStream {
    return this.callStream(A2AServiceService[key] as unknown as GrpcMethod<RequestOf<K>, StreamResponse>, request, opts, extra);
  }
}

/** What {@link GrpcTransport.callUnary} needs of a generated method definition. */
export interface GrpcMethod<Req, Res> {
  readonly path: string;
  readonly requestSerialize: (value: Req) => Buffer;
  readonly responseDeserialize: (bytes: Buffer) => Res;
}

/** Wraps a grpc-js server-stream call: numbering, quiet cancel, A2AError on failure. */
class ClientEventStream<E> implements GrpcEventStream<E> {
  private firstSeq: number | undefined;
  private headers: Metadata | undefined;
  private cancelled = false;
  private aborted = false;
  private ended = false;
  lastSeq: number | undefined;

  constructor(
    private readonly call: ClientReadableStream<E>,
    private readonly signal: AbortSignal | undefined,
  ) {
    call.on('metadata', (md: Metadata) => {
      this.headers = md;
      const raw = md.get(GRPC_METADATA.streamFirstSeq)[0];
      if (typeof raw === 'string' && /^\d+$/.test(raw)) this.firstSeq = Number(raw);
    });
    call.on('status', () => (this.ended = true));
    if (signal?.aborted) this.abort();
    else signal?.addEventListener('abort', this.abort, { once: true });
  }

  get activatedExtensions(): readonly string[] {
    return echoedExtensions(this.headers);
  }

  cancel(): void {
    this.cancelled = true;
    this.call.cancel();
  }

  private readonly abort = () => {
    this.aborted = true;
    this.call.cancel();
  };

  async *[Symbol.asyncIterator](): AsyncIterator<GrpcStreamEvent<E>> {
    let index = 0;
    let counting = true;
    try {
      for await (const event of this.call as AsyncIterable<E>) {
        let seq: number | undefined;
        if (counting && this.firstSeq !== undefined) {
          // A Task snapshot after the first event means the server resynchronised (the
          // client fell behind the log's retention): numbering is no longer consecutive.
          if (index > 0 && (event as { payload?: { $case?: string } }).payload?.$case === 'task') counting = false;
          else seq = this.firstSeq + index;
        }
        index++;
        this.lastSeq = seq;
        yield { seq, event };
      }
    } catch (error) {
      if (this.aborted) throw abortedError();
      if (this.cancelled) return;
      throw isServiceError(error) ? fromGrpcError(error) : A2AError.from(error);
    } finally {
      this.signal?.removeEventListener('abort', this.abort);
      if (!this.ended) this.call.cancel();
    }
  }
}
