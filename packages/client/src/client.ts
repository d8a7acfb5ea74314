import { A2AError, A2AErrorCode, OPERATIONS, type OperationName, type StreamOperation, type UnaryOperation } from '@a2a-polyglot/core';
import type {
  AgentCard,
  AgentInterface,
  CancelTaskRequest,
  DeepPartial,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  SendMessageResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-polyglot/model';
import { apiKeyAuth, bearerAuth, type Credential } from './auth.js';
import { BINDING_IDS, BINDING_KEYS, type BindingKey } from './bindings.js';
import { startCallSpan } from './call-span.js';
import { resolveAgentCard } from './card.js';
import type { CallInfo, Interceptor } from './interceptors.js';
import { backoffDelay, DEFAULT_RESUME, DEFAULT_RETRY, isTransient, sleep, type RetryPolicy } from './retry.js';
import { selectInterface } from './select-interface.js';
import { TaskStream, type ResumeInfo } from './task-stream.js';
import type { CallOptions, ClientEvent, Transport, TransportFactory } from './transport.js';
import { jsonRpcTransportFactory } from './transports/jsonrpc.js';
import { restTransportFactory } from './transports/rest.js';
import { webSocketTransportFactory } from './transports/websocket.js';

/** Options of {@link Client}. */
export interface ClientOptions {
  /**
   * Bindings the client may use, e.g. `['rest']` to force one. Default: every binding that
   * has a transport factory. The card's order decides among the allowed ones.
   */
  readonly bindings?: readonly BindingKey[];
  /**
   * Extra transport factories by `protocolBinding` identifier, merged over the built-in ones
   * (JSON-RPC, REST, and WebSocket where a global `WebSocket` exists). gRPC:
   * `@a2a-polyglot/client/grpc`; WebSocket on Node < 22: `webSocketTransportFactory({ WebSocket })`
   * with the `ws` package.
   */
  readonly transports?: Readonly<Record<string, TransportFactory>>;
  /** The fetch of the HTTP bindings and card resolution (default: global fetch). */
  readonly fetch?: typeof fetch;
  /** Headers sent on every call and on the card GET. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Shorthand for {@link bearerAuth}. */
  readonly bearerToken?: Credential;
  /** Shorthand for {@link apiKeyAuth}; the header defaults to `X-API-Key`. */
  readonly apiKey?: Credential;
  readonly apiKeyHeader?: string;
  /** Extensions to activate (`A2A-Extensions`). */
  readonly extensions?: readonly string[];
  /** Run around every call (after the auth shorthands). */
  readonly interceptors?: readonly Interceptor[];
  /** Default deadline of a unary call / of opening a stream, in ms. Default: none. */
  readonly timeoutMs?: number;
  /** Default longest silence of an open stream before it counts as cut. Default: none. */
  readonly idleTimeoutMs?: number;
  /** Retries of safe reads; never applied to SendMessage, CancelTask or push-config writes. */
  readonly retry?: Partial<RetryPolicy>;
  /** Resubscribes of a cut stream; `false` disables resuming. */
  readonly resume?: Partial<RetryPolicy> | false;
}

/** Per-call options of the client's methods. */
export interface RequestOptions extends CallOptions {
  /** Longest silence of an open stream (streams only). */
  readonly idleTimeoutMs?: number;
  /** Called before each automatic resubscribe (streams only). */
  readonly onResume?: (info: ResumeInfo) => void;
}

/** Options of {@link Client.connect}: the client's, plus the card lookup's. */
export interface ConnectOptions extends ClientOptions {
  /** Deadline of each card GET (default: `timeoutMs`). */
  readonly cardTimeoutMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * The transports every client has: JSON-RPC and REST, plus WebSocket where the runtime has a
 * global `WebSocket` (browsers, Node ≥ 22). gRPC is opt-in (`@a2a-polyglot/client/grpc`).
 */
function builtInTransports(): Record<string, TransportFactory> {
  const factories: Record<string, TransportFactory> = {
    [BINDING_IDS.jsonrpc]: jsonRpcTransportFactory,
    [BINDING_IDS.rest]: restTransportFactory,
  };
  if (typeof (globalThis as { WebSocket?: unknown }).WebSocket === 'function') factories[BINDING_IDS.websocket] = webSocketTransportFactory();
  return factories;
}

/** Operations that read only, so retrying them is safe. */
const SAFE_READS = new Set<OperationName>(['GetTask', 'ListTasks', 'GetTaskPushNotificationConfig', 'ListTaskPushNotificationConfigs', 'GetExtendedAgentCard']);

/**
 * One A2A client for every binding. It picks an interface from the agent card (server's
 * order, filtered by the bindings you allow), copies the interface's tenant into every
 * request, runs interceptors (auth, tracing) around each call, retries safe reads, and turns
 * streams into {@link TaskStream}s that resume by themselves after a cut. Every failure is an
 * `A2AError` from `@a2a-polyglot/core`, whatever the binding.
 */
export class Client {
  readonly card: AgentCard;
  /** The card entry in use. */
  readonly agentInterface: AgentInterface;
  /** Its binding. */
  readonly binding: BindingKey;
  private readonly transport: Transport;
  private readonly interceptors: readonly Interceptor[];
  private readonly retry: RetryPolicy;
  private readonly resume: RetryPolicy;

  constructor(
    card: AgentCard,
    private readonly options: ClientOptions = {},
  ) {
    this.card = card;
    const factories = { ...builtInTransports(), ...options.transports };
    const usable = BINDING_KEYS.filter((key) => factories[BINDING_IDS[key]] !== undefined);
    const allowed = options.bindings ? options.bindings.filter((key) => usable.includes(key)) : usable;
    if (options.bindings && allowed.length < options.bindings.length) {
      const missing = options.bindings.filter((key) => !usable.includes(key));
      throw new A2AError(
        A2AErrorCode.InvalidParams,
        `No transport for ${missing.join(', ')}: register one in options.transports${missing.includes('grpc') ? " (gRPC: grpcTransportFactory from '@a2a-polyglot/client/grpc')" : ''}`,
      );
    }
    const selected = selectInterface(card, allowed);
    this.agentInterface = selected.agentInterface;
    this.binding = selected.binding;
    this.transport = factories[BINDING_IDS[selected.binding]]!({ agentInterface: selected.agentInterface, fetch: options.fetch });
    const auth: Interceptor[] = [];
    if (options.bearerToken !== undefined) auth.push(bearerAuth(options.bearerToken));
    if (options.apiKey !== undefined) auth.push(apiKeyAuth(options.apiKey, options.apiKeyHeader));
    this.interceptors = [...auth, ...(options.interceptors ?? [])];
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.resume = options.resume === false ? { ...DEFAULT_RESUME, attempts: 0 } : { ...DEFAULT_RESUME, ...options.resume };
  }

  /** Resolves the agent card at `url` (see `resolveAgentCard`) and builds a client for it. */
  static async connect(url: string, options: ConnectOptions = {}): Promise<Client> {
    const { card } = await resolveAgentCard(url, {
      fetch: options.fetch,
      headers: options.headers,
      timeoutMs: options.cardTimeoutMs ?? options.timeoutMs,
      signal: options.signal,
    });
    return new Client(card, options);
  }

  /** SendMessage: blocks until the task settles unless `configuration.returnImmediately`. Never retried. */
  sendMessage(request: DeepPartial<SendMessageRequest>, options?: RequestOptions): Promise<SendMessageResponse> {
    return this.unary('SendMessage', request, options);
  }

  /** SendStreamingMessage as a resumable {@link TaskStream}. */
  sendStreamingMessage(request: DeepPartial<SendMessageRequest>, options?: RequestOptions): TaskStream {
    return this.taskStream('SendStreamingMessage', request, options);
  }

  /** GetTask (retried when the server is briefly unavailable: it is a read). */
  getTask(request: DeepPartial<GetTaskRequest>, options?: RequestOptions): Promise<Task> {
    return this.unary('GetTask', request, options);
  }

  /** ListTasks, one page (`nextPageToken` continues). Retried like every read. */
  listTasks(request: DeepPartial<ListTasksRequest> = {}, options?: RequestOptions): Promise<ListTasksResponse> {
    return this.unary('ListTasks', request, options);
  }

  /** CancelTask: the task as the server left it (canceled, or an error if it already ended). Not retried. */
  cancelTask(request: DeepPartial<CancelTaskRequest>, options?: RequestOptions): Promise<Task> {
    return this.unary('CancelTask', request, options);
  }

  /** SubscribeToTask as a resumable {@link TaskStream}: the Task snapshot first, then live events. */
  subscribeToTask(request: DeepPartial<SubscribeToTaskRequest>, options?: RequestOptions): TaskStream {
    return this.taskStream('SubscribeToTask', request, options);
  }

  /** Registers a webhook for a task. Not retried. */
  createTaskPushNotificationConfig(request: DeepPartial<TaskPushNotificationConfig>, options?: RequestOptions): Promise<TaskPushNotificationConfig> {
    this.requirePush();
    return this.unary('CreateTaskPushNotificationConfig', request, options);
  }

  /** Reads one webhook registration. */
  getTaskPushNotificationConfig(request: DeepPartial<GetTaskPushNotificationConfigRequest>, options?: RequestOptions): Promise<TaskPushNotificationConfig> {
    this.requirePush();
    return this.unary('GetTaskPushNotificationConfig', request, options);
  }

  /** Lists a task's webhook registrations. */
  listTaskPushNotificationConfigs(
    request: DeepPartial<ListTaskPushNotificationConfigsRequest>,
    options?: RequestOptions,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    this.requirePush();
    return this.unary('ListTaskPushNotificationConfigs', request, options);
  }

  /** Removes a webhook registration (idempotent on the server). Not retried. */
  async deleteTaskPushNotificationConfig(request: DeepPartial<DeleteTaskPushNotificationConfigRequest>, options?: RequestOptions): Promise<void> {
    this.requirePush();
    await this.unary('DeleteTaskPushNotificationConfig', request, options);
  }

  /** GetExtendedAgentCard; refused locally when the card does not offer one. */
  getExtendedAgentCard(request: DeepPartial<GetExtendedAgentCardRequest> = {}, options?: RequestOptions): Promise<AgentCard> {
    if (!this.card.capabilities?.extendedAgentCard) {
      return Promise.reject(
        new A2AError(A2AErrorCode.UnsupportedOperation, 'The agent card does not offer an extended card (capabilities.extendedAgentCard is not true)'),
      );
    }
    return this.unary('GetExtendedAgentCard', request, options);
  }

  /** Releases the transport (gRPC channel, WebSocket). */
  close(): Promise<void> {
    return this.transport.close();
  }

  private requirePush(): void {
    if (this.card.capabilities?.pushNotifications === false) {
      throw new A2AError(
        A2AErrorCode.PushNotificationNotSupported,
        'The agent card says push notifications are not supported (capabilities.pushNotifications is false)',
      );
    }
  }

  /** The full request message: proto defaults filled in, the interface's tenant applied. */
  private prepare<Req>(op: { request: { fromPartial(o: any): Req } }, partial: unknown): Req {
    const request = op.request.fromPartial(partial ?? {}) as Req & { tenant?: string };
    if (this.agentInterface.tenant && !request.tenant) request.tenant = this.agentInterface.tenant;
    return request;
  }

  /**
   * The call's headers: the W3C trace context of its span first (`traceparent`, `tracestate`;
   * nothing without an OpenTelemetry SDK), so the agent's spans continue the caller's trace
   * on every binding (HTTP headers, gRPC metadata, WebSocket `serviceParams`); then the
   * client's and the call's own headers, which win.
   */
  private callInfo(operation: OperationName, request: unknown, options: RequestOptions | undefined, traceHeaders: Readonly<Record<string, string>>): CallInfo {
    const headers: Record<string, string> = { ...traceHeaders };
    Object.assign(headers, this.options.headers);
    if (this.options.extensions?.length) headers['A2A-Extensions'] = this.options.extensions.join(',');
    Object.assign(headers, options?.headers);
    return { operation, binding: this.binding, url: this.agentInterface.url, request, headers };
  }

  private async before(info: CallInfo): Promise<void> {
    for (const interceptor of this.interceptors) await interceptor.before?.(info);
  }

  private async after(info: CallInfo, result: unknown, error: A2AError | undefined, started: number): Promise<void> {
    const outcome = { result, error, durationMs: Date.now() - started };
    for (const interceptor of [...this.interceptors].reverse()) await interceptor.after?.(info, outcome);
  }

  private async unary<Res>(name: OperationName, partial: unknown, options: RequestOptions = {}): Promise<Res> {
    const op = OPERATIONS[name] as UnaryOperation<unknown, Res>;
    const request = this.prepare(op, partial);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    const retries = SAFE_READS.has(name) ? this.retry.attempts : 0;
    for (let attempt = 0; ; attempt++) {
      const span = startCallSpan(name, BINDING_IDS[this.binding], this.agentInterface.url);
      const info = this.callInfo(name, request, options, span.traceHeaders);
      const started = Date.now();
      try {
        await this.before(info);
        const remaining = deadline === undefined ? undefined : Math.max(1, deadline - Date.now());
        const result = await this.transport.unary(op, info.request, { signal: options.signal, timeoutMs: remaining, headers: info.headers });
        span.end(undefined);
        await this.after(info, result, undefined, started);
        return result;
      } catch (thrown) {
        const error = A2AError.from(thrown);
        span.end(error);
        await this.after(info, undefined, error, started);
        const delay = backoffDelay(this.retry, attempt + 1);
        const timeLeft = deadline === undefined || Date.now() + delay < deadline;
        if (attempt >= retries || !isTransient(error) || !timeLeft) throw error;
        await sleep(delay, options.signal, name);
      }
    }
  }

  private taskStream(name: 'SendStreamingMessage' | 'SubscribeToTask', partial: unknown, options: RequestOptions = {}): TaskStream {
    if (this.card.capabilities?.streaming === false) {
      const refusal = new A2AError(A2AErrorCode.UnsupportedOperation, 'The agent card says streaming is not supported (capabilities.streaming is false)');
      return new TaskStream(
        { open: () => failing(refusal), resubscribe: () => failing(refusal), getTask: () => Promise.reject(refusal) },
        { resume: this.resume },
      );
    }
    const op = OPERATIONS[name] as StreamOperation<unknown>;
    const request = this.prepare(op, partial);
    const tenant = (request as { tenant?: string }).tenant ?? '';
    return new TaskStream(
      {
        open: () => this.intercepted(name, op, request, options, undefined),
        resubscribe: (id, afterSeq) => {
          const subscribe = OPERATIONS.SubscribeToTask as StreamOperation<unknown>;
          return this.intercepted('SubscribeToTask', subscribe, this.prepare(subscribe, { id, tenant }), options, afterSeq);
        },
        getTask: (id) => this.unary('GetTask', { id, tenant }, { signal: options.signal, timeoutMs: options.timeoutMs, headers: options.headers }),
      },
      {
        resume: this.resume,
        signal: options.signal,
        taskId: name === 'SubscribeToTask' ? (request as SubscribeToTaskRequest).id || undefined : undefined,
        onResume: options.onResume,
        followUp: name === 'SendStreamingMessage' && Boolean((request as SendMessageRequest).message?.taskId),
      },
    );
  }

  /** One underlying stream call with its interceptors (each resubscribe is a call of its own). */
  private async *intercepted(
    name: OperationName,
    op: StreamOperation<unknown>,
    request: unknown,
    options: RequestOptions,
    resumeAfterSeq: number | undefined,
  ): AsyncGenerator<ClientEvent> {
    const span = startCallSpan(name, BINDING_IDS[this.binding], this.agentInterface.url);
    const info = this.callInfo(name, request, options, span.traceHeaders);
    const started = Date.now();
    let failure: A2AError | undefined;
    try {
      await this.before(info);
      yield* this.transport.stream(op, info.request, {
        signal: options.signal,
        timeoutMs: options.timeoutMs ?? this.options.timeoutMs,
        idleTimeoutMs: options.idleTimeoutMs ?? this.options.idleTimeoutMs,
        headers: info.headers,
        resumeAfterSeq,
      });
    } catch (thrown) {
      failure = A2AError.from(thrown);
      throw failure;
    } finally {
      span.end(failure);
      await this.after(info, undefined, failure, started);
    }
  }
}

/** A stream that fails on its first read (`yield* []` yields nothing; it makes this a generator in the linter's eyes too). */
async function* failing(error: A2AError): AsyncGenerator<ClientEvent> {
  yield* [];
  throw error;
}
