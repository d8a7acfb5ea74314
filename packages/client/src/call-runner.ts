import { A2AError, OPERATIONS, type OperationName, type StreamOperation, type UnaryOperation } from '@a2a-polyglot/core';
import type { AgentInterface, DeepPartial } from '@a2a-polyglot/model';
import { BINDING_IDS, type BindingKey } from './bindings.js';
import { startCallSpan } from './call-span.js';
import type { ClientOptions, RequestOptions } from './client-options.js';
import type { CallInfo, Interceptor } from './interceptors.js';
import { newMessageId } from './messages.js';
import { backoffDelay, isTransient, type RetryPolicy, sleep } from './retry.js';
import type { ClientEvent, Transport } from './transport.js';

/** What {@link CallRunner.prepare} needs of an operation: the codec that fills in proto defaults. */
export interface PartialRequestCodec<Req> {
  readonly request: { fromPartial(object: DeepPartial<Req>): Req };
}

/** What a {@link CallRunner} works with: the interface in use, its transport, and the client's call settings. */
export interface CallRunnerSetup {
  readonly agentInterface: AgentInterface;
  readonly binding: BindingKey;
  readonly transport: Transport;
  /** Auth shorthands first, then the caller's interceptors. */
  readonly interceptors: readonly Interceptor[];
  readonly retry: RetryPolicy;
  readonly options: ClientOptions;
}

/**
 * How every call of a {@link Client} runs, whatever the operation: the request completed
 * (proto defaults, the interface's tenant), the headers assembled (trace context, the client's,
 * the call's), interceptors run around it, a span recorded, and safe reads retried within the
 * call's deadline. The client's methods only choose the operation.
 */
export class CallRunner {
  constructor(private readonly setup: CallRunnerSetup) {}

  /** The full request message: proto defaults filled in, the interface's tenant applied. */
  prepare<Req>(op: PartialRequestCodec<Req>, partial: DeepPartial<Req>): Req {
    const request = op.request.fromPartial(partial);
    const { tenant } = this.setup.agentInterface;
    if (tenant && isMessage(request) && !request.tenant) request.tenant = tenant;
    return request;
  }

  /** One unary call, retried (reads only: the operation's `readOnly`) while the error is transient and time is left. */
  async unary<Res>(name: OperationName, partial: unknown, options: RequestOptions = {}): Promise<Res> {
    const { binding, agentInterface, transport, retry } = this.setup;
    const op = OPERATIONS[name] as UnaryOperation<unknown, Res>;
    const request = this.prepare(op, partial ?? {});
    const timeoutMs = options.timeoutMs ?? this.setup.options.timeoutMs;
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    const retrySend = name === 'SendMessage' && this.setup.options.retrySends === true;
    // The messageId is the server's key for recognising a retry: fixed once, before the first attempt.
    if (retrySend) keepMessageId(request);
    const retries = op.readOnly || retrySend ? retry.attempts : 0;
    for (let attempt = 0; ; attempt++) {
      const span = startCallSpan(name, BINDING_IDS[binding], agentInterface.url);
      const info = this.callInfo(name, request, options, span.traceHeaders);
      const started = Date.now();
      try {
        await this.before(info);
        const remaining = deadline === undefined ? undefined : Math.max(1, deadline - Date.now());
        const result = await transport.unary(op, info.request, { signal: options.signal, timeoutMs: remaining, headers: info.headers });
        span.end(undefined);
        await this.after(info, result, undefined, started);
        return result;
      } catch (thrown) {
        const error = A2AError.from(thrown);
        span.end(error);
        await this.after(info, undefined, error, started);
        const delay = backoffDelay(retry, attempt + 1);
        const timeLeft = deadline === undefined || Date.now() + delay < deadline;
        if (attempt >= retries || !isTransient(error) || !timeLeft) throw error;
        await sleep(delay, options.signal, name);
      }
    }
  }

  /** One underlying stream call with its interceptors (each resubscribe is a call of its own). */
  async *stream(
    name: OperationName,
    op: StreamOperation<unknown>,
    request: unknown,
    options: RequestOptions,
    resumeAfterSeq: number | undefined,
  ): AsyncGenerator<ClientEvent> {
    const { binding, agentInterface, transport } = this.setup;
    const span = startCallSpan(name, BINDING_IDS[binding], agentInterface.url);
    const info = this.callInfo(name, request, options, span.traceHeaders);
    const started = Date.now();
    let failure: A2AError | undefined;
    try {
      await this.before(info);
      yield* transport.stream(op, info.request, {
        signal: options.signal,
        timeoutMs: options.timeoutMs ?? this.setup.options.timeoutMs,
        idleTimeoutMs: options.idleTimeoutMs ?? this.setup.options.idleTimeoutMs,
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

  /**
   * The call's headers: the W3C trace context of its span first (`traceparent`, `tracestate`;
   * nothing without an OpenTelemetry SDK), so the agent's spans continue the caller's trace
   * on every binding (HTTP headers, gRPC metadata, WebSocket `serviceParams`); then the
   * client's and the call's own headers, which win.
   */
  private callInfo(operation: OperationName, request: unknown, options: RequestOptions | undefined, traceHeaders: Readonly<Record<string, string>>): CallInfo {
    const { options: clientOptions, binding, agentInterface } = this.setup;
    const headers: Record<string, string> = { ...traceHeaders };
    Object.assign(headers, clientOptions.headers);
    if (clientOptions.extensions?.length) headers['A2A-Extensions'] = clientOptions.extensions.join(',');
    Object.assign(headers, options?.headers);
    return { operation, binding, url: agentInterface.url, request, headers };
  }

  private async before(info: CallInfo): Promise<void> {
    for (const interceptor of this.setup.interceptors) await interceptor.before?.(info);
  }

  private async after(info: CallInfo, result: unknown, error: A2AError | undefined, started: number): Promise<void> {
    const outcome = { result, error, durationMs: Date.now() - started };
    for (const interceptor of [...this.setup.interceptors].reverse()) await interceptor.after?.(info, outcome);
  }
}

/** True for a (request) message object, whose `tenant` field may be read and set. */
function isMessage(value: unknown): value is { tenant?: unknown } {
  return typeof value === 'object' && value !== null;
}

/** Gives a send without a `messageId` one, so that every attempt of it carries the same. */
function keepMessageId(request: unknown): void {
  const message = (request as { message?: { messageId?: string } } | undefined)?.message;
  if (message && !message.messageId) message.messageId = newMessageId();
}
