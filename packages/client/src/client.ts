import {
  A2AError,
  A2AErrorCode,
  OPERATIONS,
  type OperationName,
  type OperationRequest,
  type OperationResponse,
  type StreamOperation,
  type StreamOperationName,
} from '@a2a-polyglot/core';
import type { AgentCard, AgentInterface, DeepPartial } from '@a2a-polyglot/model';
import { apiKeyAuth, bearerAuth } from './auth.js';
import type { BindingKey } from './bindings.js';
import { CallRunner } from './call-runner.js';
import { resolveAgentCard } from './card.js';
import { CardVerifier } from './card-verification.js';
import type { ClientOptions, ConnectOptions, RequestOptions } from './client-options.js';
import type { Interceptor } from './interceptors.js';
import { DEFAULT_RESUME, DEFAULT_RETRY, type RetryPolicy } from './retry.js';
import { TaskStream } from './task-stream.js';
import type { ClientEvent, Transport } from './transport.js';
import { openTransport } from './transport-selection.js';

export type { ClientOptions, ConnectOptions, RequestOptions } from './client-options.js';

/** What a client method takes for operation `N`: its request message, any field left out (proto defaults fill it in). */
type Req<N extends OperationName> = DeepPartial<OperationRequest<N>>;
/** What a unary client method resolves to for operation `N`. */
type Res<N extends OperationName> = Promise<OperationResponse<N>>;

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
  private readonly calls: CallRunner;
  private readonly resume: RetryPolicy;
  private readonly verifier: CardVerifier | undefined;

  constructor(card: AgentCard, options: ClientOptions = {}) {
    this.card = card;
    this.verifier =
      options.verifyCard && new CardVerifier(options.verifyCard, { fetch: options.fetch ?? ((...a) => globalThis.fetch(...a)), timeoutMs: options.timeoutMs });
    const { agentInterface, binding, transport } = openTransport(card, options);
    this.agentInterface = agentInterface;
    this.binding = binding;
    this.transport = transport;
    const auth: Interceptor[] = [];
    if (options.bearerToken !== undefined) auth.push(bearerAuth(options.bearerToken));
    if (options.apiKey !== undefined) auth.push(apiKeyAuth(options.apiKey, options.apiKeyHeader));
    this.calls = new CallRunner({
      agentInterface,
      binding,
      transport,
      interceptors: [...auth, ...(options.interceptors ?? [])],
      retry: { ...DEFAULT_RETRY, ...options.retry },
      options,
    });
    this.resume = options.resume === false ? { ...DEFAULT_RESUME, attempts: 0 } : { ...DEFAULT_RESUME, ...options.resume };
  }

  /** Resolves the agent card at `url` (see `resolveAgentCard`) and builds a client for it. */
  static async connect(url: string, options: ConnectOptions = {}): Promise<Client> {
    const { card } = await resolveAgentCard(url, {
      fetch: options.fetch,
      headers: options.headers,
      timeoutMs: options.cardTimeoutMs ?? options.timeoutMs,
      signal: options.signal,
      verifyCard: options.verifyCard,
    });
    return new Client(card, options);
  }

  /** SendMessage: blocks until the task settles unless `configuration.returnImmediately`. Retried, same messageId, only with `retrySends`. */
  sendMessage(request: Req<'SendMessage'>, options?: RequestOptions): Res<'SendMessage'> {
    return this.unary('SendMessage', request, options);
  }

  /** SendStreamingMessage as a resumable {@link TaskStream}. */
  sendStreamingMessage(request: Req<'SendStreamingMessage'>, options?: RequestOptions): TaskStream {
    return this.taskStream('SendStreamingMessage', request, options);
  }

  /** GetTask (retried when the server is briefly unavailable: it is a read). */
  getTask(request: Req<'GetTask'>, options?: RequestOptions): Res<'GetTask'> {
    return this.unary('GetTask', request, options);
  }

  /** ListTasks, one page (`nextPageToken` continues). Retried like every read. */
  listTasks(request: Req<'ListTasks'> = {}, options?: RequestOptions): Res<'ListTasks'> {
    return this.unary('ListTasks', request, options);
  }

  /** CancelTask: the task as the server left it (canceled, or an error if it already ended). Not retried. */
  cancelTask(request: Req<'CancelTask'>, options?: RequestOptions): Res<'CancelTask'> {
    return this.unary('CancelTask', request, options);
  }

  /** SubscribeToTask as a resumable {@link TaskStream}: the Task snapshot first, then live events. */
  subscribeToTask(request: Req<'SubscribeToTask'>, options?: RequestOptions): TaskStream {
    return this.taskStream('SubscribeToTask', request, options);
  }

  /** Registers a webhook for a task. Not retried. */
  createTaskPushNotificationConfig(request: Req<'CreateTaskPushNotificationConfig'>, options?: RequestOptions): Res<'CreateTaskPushNotificationConfig'> {
    this.requirePush();
    return this.unary('CreateTaskPushNotificationConfig', request, options);
  }

  /** Reads one webhook registration. */
  getTaskPushNotificationConfig(request: Req<'GetTaskPushNotificationConfig'>, options?: RequestOptions): Res<'GetTaskPushNotificationConfig'> {
    this.requirePush();
    return this.unary('GetTaskPushNotificationConfig', request, options);
  }

  /** Lists a task's webhook registrations. */
  listTaskPushNotificationConfigs(request: Req<'ListTaskPushNotificationConfigs'>, options?: RequestOptions): Res<'ListTaskPushNotificationConfigs'> {
    this.requirePush();
    return this.unary('ListTaskPushNotificationConfigs', request, options);
  }

  /** Removes a webhook registration (idempotent on the server). Not retried. */
  async deleteTaskPushNotificationConfig(request: Req<'DeleteTaskPushNotificationConfig'>, options?: RequestOptions): Promise<void> {
    this.requirePush();
    await this.unary('DeleteTaskPushNotificationConfig', request, options);
  }

  /**
   * GetExtendedAgentCard; refused locally when the card does not offer one. With `verifyCard`
   * the extended card must verify too; over a v0.3 interface it cannot (the v0.3 form has lost
   * what the signature covers), which is refused as well.
   */
  async getExtendedAgentCard(request: Req<'GetExtendedAgentCard'> = {}, options?: RequestOptions): Res<'GetExtendedAgentCard'> {
    if (!this.card.capabilities?.extendedAgentCard) {
      throw new A2AError(A2AErrorCode.UnsupportedOperation, 'The agent card does not offer an extended card (capabilities.extendedAgentCard is not true)');
    }
    const card = await this.unary('GetExtendedAgentCard', request, options);
    if (this.verifier) await this.verifier.verifyDecoded(card, this.agentInterface, `the extended card from ${this.agentInterface.url}`);
    return card;
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

  private unary<N extends OperationName>(name: N, partial: unknown, options?: RequestOptions): Res<N> {
    return this.calls.unary(name, partial, options);
  }

  private taskStream(name: StreamOperationName, partial: unknown, options: RequestOptions = {}): TaskStream {
    if (this.card.capabilities?.streaming === false) {
      const refusal = new A2AError(A2AErrorCode.UnsupportedOperation, 'The agent card says streaming is not supported (capabilities.streaming is false)');
      return new TaskStream(
        { open: () => failing(refusal), resubscribe: () => failing(refusal), getTask: () => Promise.reject(refusal) },
        { resume: this.resume },
      );
    }
    const op = OPERATIONS[name] as StreamOperation<unknown>;
    const request = this.calls.prepare(op, partial ?? {});
    const tenant = (request as { tenant?: string }).tenant ?? '';
    return new TaskStream(
      {
        open: () => this.calls.stream(name, op, request, options, undefined),
        resubscribe: (id, afterSeq) => {
          const subscribe = OPERATIONS.SubscribeToTask as StreamOperation<unknown>;
          return this.calls.stream('SubscribeToTask', subscribe, this.calls.prepare(subscribe, { id, tenant }), options, afterSeq);
        },
        getTask: (id) => this.unary('GetTask', { id, tenant }, { signal: options.signal, timeoutMs: options.timeoutMs, headers: options.headers }),
      },
      {
        resume: this.resume,
        signal: options.signal,
        taskId: name === 'SubscribeToTask' ? (request as OperationRequest<'SubscribeToTask'>).id || undefined : undefined,
        onResume: options.onResume,
        followUp: name === 'SendStreamingMessage' && Boolean((request as OperationRequest<'SendStreamingMessage'>).message?.taskId),
      },
    );
  }
}

/** A stream that fails on its first read (`yield* []` yields nothing; it makes this a generator in the linter's eyes too). */
async function* failing(error: A2AError): AsyncGenerator<ClientEvent> {
  yield* [];
  throw error;
}
