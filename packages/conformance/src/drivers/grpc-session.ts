import { operationByName, streamEventToJson } from '@a2a-polyglot/core';
import { errorFromFrame, fromGrpcError, GrpcSessionClient, type SessionStream } from '@a2a-polyglot/client/grpc';
import type { CancelTaskRequest, GetTaskRequest, ListTasksRequest, SendMessageRequest, SubscribeToTaskRequest } from '@a2a-polyglot/model';
import { A2ASessionServiceService, type SessionRequest, type SessionResponse } from '@a2a-polyglot/model/session';
import { Client, credentials, type ClientDuplexStream, type ServiceError } from '@grpc/grpc-js';
import {
  DEFAULT_HEADERS,
  DriverFailure,
  failed,
  opened,
  type Binding,
  type CallOptions,
  type CallResult,
  type Driver,
  type DriverStream,
  type OpenResult,
  type ProbeKind,
  type StreamItem,
} from '../driver.js';
import { GrpcDriver } from './grpc.js';
import { startGrpcServersUnderTest } from './grpc-servers.js';
import { MALFORMED_PROTOBUF, metadataOf, rawBytes } from './grpc-wire.js';
import { WIRE_VIOLATION, wireViolation } from './http-common.js';
import { fillQueue, ItemQueue, queuedDriverStream } from './item-queue.js';
import { unaryResultJson } from './unary-result.js';

type SessionOperation = NonNullable<SessionRequest['operation']>;
type Frame = NonNullable<SessionResponse['frame']>;

/**
 * How a driven session addresses one agent of a server that serves several (a gateway): the
 * session metadata (`a2a-agent`), or the `tenant` a card-following client copies into every
 * request that names none. Default: neither (the server's own handler).
 */
export interface SessionAddressing {
  /** Metadata of every session the driver opens, under each step's own service parameters. */
  readonly metadata?: Readonly<Record<string, string>>;
  /** Set as the request's `tenant` when the scenario's request has none. */
  readonly tenant?: string;
}

/**
 * The driver of the EXPERIMENTAL gRPC session service (`lf.a2a.v1.A2ASessionService`): every
 * operation the session carries goes over ONE `GrpcSessionClient` session, opened when the
 * binding starts and multiplexed by correlation id, so a scenario exercises one long-lived
 * session the way an orchestrator would use it.
 *
 * - Session operations: SendMessage / SendStreamingMessage (`send`, streaming or not),
 *   GetTask (`get`), ListTasks (`list`), CancelTask (`cancel`), SubscribeToTask (`subscribe`,
 *   resume with `resumeAfterSeq`). Requests are the scenario's ProtoJSON through the model's
 *   `fromJSON`; answers go back to ProtoJSON through the operation's own encoder (core
 *   `OPERATIONS`), as on the standard service.
 * - **Not carried by the session**: the four push-config operations and
 *   GetExtendedAgentCard. They go over the standard `lf.a2a.v1.A2AService` RPCs of the same
 *   server (through {@link GrpcDriver}), which is what a session client does for them.
 * - Service parameters belong to the session (its call metadata applies to every operation).
 *   A step that overrides them (no `a2a-version`, another version, `a2a-extensions`) therefore
 *   runs on a session of its own, opened with exactly those metadata and carrying that one
 *   operation; `GrpcSessionClient` always announces 1.0, so that session is a raw grpc-js call.
 * - Event numbers: each `event` frame's `seq` (0, a direct Message, is unnumbered). Opening
 *   a stream: there is no "stream accepted" frame, so `open` waits for the first frame (an
 *   `error` frame first is a refused stream), except for a resumed subscription, which may
 *   have nothing to deliver yet and is handed over at once. The client cut is `unsubscribe`.
 * - Probes: an unknown RPC path on the session service (UNIMPLEMENTED ⇒ METHOD_NOT_FOUND);
 *   bytes that are not a SessionRequest, on a session of their own because they end the
 *   session they arrive on (INVALID_ARGUMENT with reason PARSE_ERROR).
 * - Card discovery: HTTP, as for the standard gRPC driver.
 */
export class GrpcSessionDriver implements Driver {
  readonly binding = 'grpc-session';
  private readonly session: GrpcSessionClient;
  private readonly raw: Client;

  /**
   * @param standard the standard-service driver of the same server (operations the session does not carry, card)
   * @param addressing how the sessions address the agent under test (see {@link SessionAddressing})
   */
  constructor(
    private readonly standard: GrpcDriver,
    private readonly addressing: SessionAddressing = {},
  ) {
    this.session = new GrpcSessionClient({ url: standard.target, headers: addressing.metadata });
    this.raw = new Client(standard.target, credentials.createInsecure());
  }

  async call(operation: string, request: unknown, options?: CallOptions): Promise<CallResult> {
    try {
      const op = operationByName(operation);
      const decoded = this.addressed(op.request.fromJSON(request ?? {}));
      const session = sessionOperation(operation, decoded, options);
      if (!session) return await this.standard.call(operation, request, options);
      const response = hasOverrides(options) ? await this.oneShotUnary(session, options) : await this.sessionUnary(session);
      return { ok: true, result: unaryResultJson(op, response, decoded) };
    } catch (error) {
      return failed(error);
    }
  }

  async open(operation: string, request: unknown, options?: CallOptions): Promise<OpenResult> {
    try {
      const op = operationByName(operation);
      const session = sessionOperation(operation, this.addressed(op.request.fromJSON(request ?? {})), options);
      if (!session || op.kind !== 'stream') throw new Error(`the session driver has no stream operation ${operation}`);
      const stream = hasOverrides(options) ? this.oneShotStream(session, options) : this.sessionStream(session);
      return options?.resumeAfterSeq === undefined ? await opened(stream) : { ok: true, stream };
    } catch (error) {
      return failed(error);
    }
  }

  async probe(kind: ProbeKind): Promise<CallResult> {
    if (kind === 'unknown-method') {
      return new Promise((resolve) => {
        this.raw.makeUnaryRequest(
          '/lf.a2a.v1.A2ASessionService/NoSuchMethod',
          rawBytes,
          rawBytes,
          Buffer.alloc(0),
          this.sessionMetadata(undefined),
          (error: ServiceError | null) =>
            resolve(error ? failed(fromGrpcError(error)) : wireViolation('probe unknown-method: the server answered with a result')),
        );
      });
    }
    const method = A2ASessionServiceService.session;
    const call = this.raw.makeBidiStreamRequest(method.path, rawBytes, method.responseDeserialize, this.sessionMetadata(undefined));
    call.write(MALFORMED_PROTOBUF);
    call.end();
    const frames = collectFrames(call);
    try {
      const first = await frames.next();
      return wireViolation(`probe malformed-json: the session answered ${first.done ? 'nothing and ended OK' : JSON.stringify(first.value)}`);
    } catch (error) {
      return failed(error);
    }
  }

  agentCard(): Promise<CallResult> {
    return this.standard.agentCard();
  }

  async close(): Promise<void> {
    this.session.destroy();
    this.raw.close();
    await this.standard.close();
  }

  // ---------------------------------------------------------------- addressing

  /** The decoded request with the addressing's tenant when it names none. */
  private addressed(request: unknown): unknown {
    const tenant = this.addressing.tenant;
    if (tenant === undefined || typeof request !== 'object' || request === null) return request;
    return 'tenant' in request && request.tenant ? request : { ...request, tenant };
  }

  /** The metadata of a session of its own: the addressing's, the default service parameters, the step's overrides. */
  private sessionMetadata(headers: CallOptions['headers']) {
    return metadataOf(headers, { ...DEFAULT_HEADERS, ...this.addressing.metadata });
  }

  // ---------------------------------------------------------------- the shared session

  private sessionUnary(operation: SessionOperation): Promise<unknown> {
    switch (operation.$case) {
      case 'send':
        return this.session.send(requestOf(operation));
      case 'get':
        return this.session.get(operation.value);
      case 'list':
        return this.session.list(operation.value);
      case 'cancel':
        return this.session.cancel(operation.value);
      default:
        throw new Error(`${operation.$case} is not a unary session operation`);
    }
  }

  private sessionStream(operation: SessionOperation): DriverStream {
    let stream: SessionStream;
    if (operation.$case === 'send') stream = this.session.sendStreaming(requestOf(operation));
    else if (operation.$case === 'subscribe') {
      const after = operation.value.resumeAfterSeq;
      stream = this.session.subscribe(requestOf(operation), after === undefined ? {} : { resumeAfterSeq: Number(after) });
    } else throw new Error(`${operation.$case} is not a stream session operation`);
    // The iteration below is the only consumer; the cut ends a pending read at once.
    const queue = new ItemQueue<StreamItem>();
    fillQueue(queue, async () => {
      for await (const { seq, event } of stream) queue.push({ seq: seq > 0 ? seq : undefined, event: streamEventToJson(event) });
    });
    return queuedDriverStream(queue, () => stream.unsubscribe());
  }

  // ---------------------------------------------------------------- sessions with their own metadata

  /** Opens a session with the step's metadata, sends its one operation and half-closes. */
  private oneShot(operation: SessionOperation, options: CallOptions | undefined): ClientDuplexStream<SessionRequest, SessionResponse> {
    const method = A2ASessionServiceService.session;
    const call = this.raw.makeBidiStreamRequest(method.path, method.requestSerialize, method.responseDeserialize, this.sessionMetadata(options?.headers));
    call.write({ correlationId: '1', operation });
    call.end();
    return call;
  }

  private async oneShotUnary(operation: SessionOperation, options: CallOptions | undefined): Promise<unknown> {
    const frames = collectFrames(this.oneShot(operation, options));
    const first = await frames.next();
    if (first.done) throw new DriverFailure(WIRE_VIOLATION, `the session ended without answering the ${operation.$case} operation`);
    const frame = first.value;
    if (frame.$case === 'error') throw errorFromFrame(frame.value);
    if (frame.$case !== 'result' || !frame.value.result)
      throw new DriverFailure(WIRE_VIOLATION, `a ${frame.$case} frame answered a unary ${operation.$case} operation`);
    return frame.value.result.value;
  }

  private oneShotStream(operation: SessionOperation, options: CallOptions | undefined): DriverStream {
    const call = this.oneShot(operation, options);
    const frames = collectFrames(call);
    const queue = new ItemQueue<StreamItem>();
    fillQueue(queue, async () => {
      for (;;) {
        const next = await frames.next();
        if (next.done) throw new DriverFailure(WIRE_VIOLATION, `the session ended without an end frame for the ${operation.$case} stream`);
        const frame = next.value;
        if (frame.$case === 'end') return;
        if (frame.$case === 'error') throw errorFromFrame(frame.value);
        if (frame.$case !== 'event' || !frame.value.event) throw new DriverFailure(WIRE_VIOLATION, `a ${frame.$case} frame in a stream`);
        const seq = Number(frame.value.seq);
        queue.push({ seq: seq > 0 ? seq : undefined, event: streamEventToJson(frame.value.event) });
      }
    });
    return queuedDriverStream(queue, () => call.cancel());
  }
}

/** The request of a `send` or `subscribe` session operation; the driver always builds one, so none is a driver bug. */
function requestOf<R>(operation: { readonly $case: string; readonly value: { readonly request?: R | undefined } }): R {
  const request = operation.value.request;
  if (request === undefined) throw new Error(`the ${operation.$case} session operation carries no request`);
  return request;
}

/** Whether a step sets service parameters of its own (then it needs a session of its own). */
function hasOverrides(options: CallOptions | undefined): boolean {
  return Object.keys(options?.headers ?? {}).length > 0;
}

/** The session operation of a spec operation, or undefined when the session does not carry it. */
function sessionOperation(operation: string, request: unknown, options: CallOptions | undefined): SessionOperation | undefined {
  switch (operation) {
    case 'SendMessage':
      return { $case: 'send', value: { request: request as SendMessageRequest, streaming: false } };
    case 'SendStreamingMessage':
      return { $case: 'send', value: { request: request as SendMessageRequest, streaming: true } };
    case 'GetTask':
      return { $case: 'get', value: request as GetTaskRequest };
    case 'ListTasks':
      return { $case: 'list', value: request as ListTasksRequest };
    case 'CancelTask':
      return { $case: 'cancel', value: request as CancelTaskRequest };
    case 'SubscribeToTask': {
      const after = options?.resumeAfterSeq;
      return { $case: 'subscribe', value: { request: request as SubscribeToTaskRequest, resumeAfterSeq: after === undefined ? undefined : String(after) } };
    }
    default:
      return undefined;
  }
}

/** The frames of a raw session call (all for correlation id `1`); a failed call status is thrown after them. */
function collectFrames<Req>(call: ClientDuplexStream<Req, SessionResponse>): ItemQueue<Frame> {
  const queue = new ItemQueue<Frame>();
  call.on('data', (response: SessionResponse) => {
    if (response.frame) queue.push(response.frame);
  });
  call.on('error', (error: ServiceError) => queue.end(fromGrpcError(error)));
  call.on('end', () => queue.end());
  return queue;
}

/** The gRPC session binding: the same servers as `grpc`, driven through one session. */
export const grpcSessionBinding: Binding = {
  name: 'grpc-session',
  requestEncoding: 'protobuf',
  async start(handler) {
    const servers = await startGrpcServersUnderTest(handler);
    return new GrpcSessionDriver(new GrpcDriver(servers.target, servers.cardUrl, () => servers.close()));
  },
};
