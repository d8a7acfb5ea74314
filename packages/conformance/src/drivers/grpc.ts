import { operationByName, streamEventToJson, type Operation, type RequestHandler } from '@a2a-polyglot/core';
import { fromGrpcError, METADATA, startGrpcServer } from '@a2a-polyglot/grpc';
import type { StreamResponse } from '@a2a-polyglot/model';
import { A2AServiceService, V03A2AServiceService } from '@a2a-polyglot/model/grpc';
import { startA2AServer } from '@a2a-polyglot/server';
import { Client, credentials, Metadata, type ClientReadableStream, type MethodDefinition, type ServiceError } from '@grpc/grpc-js';
import {
  DEFAULT_HEADERS,
  DriverFailure,
  failed,
  mergeHeaders,
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
import { fetchAgentCard, WIRE_VIOLATION, wireViolation } from './http-common.js';
import { V03_TRANSLATIONS, v03EventToJson, v03Translation } from './v03-translate.js';

type AnyMethod = MethodDefinition<unknown, unknown>;

/** The methods of a generated service by RPC name (`/lf.a2a.v1.A2AService/GetTask` → `GetTask`). */
function methodsOf(service: object): ReadonlyMap<string, AnyMethod> {
  return new Map(Object.values(service as Record<string, AnyMethod>).map((m) => [m.path.slice(m.path.lastIndexOf('/') + 1), m]));
}

/**
 * What differs between the two standard gRPC services the driver talks to: the v1.0
 * `lf.a2a.v1.A2AService` (messages are the core's own) and the v0.3 `a2a.v1.A2AService`
 * (messages converted with @a2a-polyglot/v03, no version metadata by default).
 * @internal
 */
export interface GrpcWire {
  readonly binding: string;
  /** The generated method of an operation (undefined: the service has none). */
  method(operation: string): AnyMethod | undefined;
  /** Decoded v1.0 request → the wire request message. */
  toWire(operation: string, request: unknown): unknown;
  /** Wire answer → the v1.0 response message. */
  fromWire(operation: string, response: unknown): unknown;
  /** One wire stream event → v1.0 StreamResponse JSON. */
  eventToJson(event: unknown): unknown;
  /** Service parameters sent unless a step overrides them. */
  readonly defaults: Readonly<Record<string, string>>;
  /** The service's path prefix (`/lf.a2a.v1.A2AService/`), for the unknown-method probe. */
  readonly pathPrefix: string;
}

const V1_METHODS = methodsOf(A2AServiceService);
const V03_METHODS = methodsOf(V03A2AServiceService);

/** The v1.0 service: nothing to convert. @internal */
export const V1_GRPC_WIRE: GrpcWire = {
  binding: 'grpc',
  method: (operation) => V1_METHODS.get(operation),
  toWire: (_operation, request) => request,
  fromWire: (_operation, response) => response,
  eventToJson: (event) => streamEventToJson(event as StreamResponse),
  defaults: DEFAULT_HEADERS,
  pathPrefix: '/lf.a2a.v1.A2AService/',
};

/** The v0.3 service `a2a.v1.A2AService`, as v0.3 clients call it (no `a2a-version`). @internal */
export const V03_GRPC_WIRE: GrpcWire = {
  binding: 'grpc-v03',
  method: (operation) => {
    const t = V03_TRANSLATIONS[operation as keyof typeof V03_TRANSLATIONS];
    return t && V03_METHODS.get(t.rpc);
  },
  toWire: (operation, request) => v03Translation(operation).toV03(request),
  fromWire: (operation, response) => v03Translation(operation).toV1(response),
  eventToJson: (event) => v03EventToJson(event as never),
  defaults: {},
  pathPrefix: '/a2a.v1.A2AService/',
};

/** Bytes that are not a protobuf message: field 1 (length-delimited) claims 5 bytes, 1 follows. */
const MALFORMED_PROTOBUF = Buffer.from([0x0a, 0x05, 0x0a]);

const identity = (bytes: Buffer): Buffer => bytes;

/**
 * The gRPC driver (standard `lf.a2a.v1.A2AService`), on a raw grpc-js `Client` so every call
 * carries exactly the metadata the step asks for (our `GrpcTransport` always announces
 * `a2a-version: 1.0`, which the missing-version steps must be able to omit).
 *
 * - Requests: the scenario's ProtoJSON becomes the proto request message through the
 *   model's `fromJSON`, goes over the wire as protobuf, and the answer comes back to
 *   ProtoJSON through the operation's own encoder (core `OPERATIONS`: `toJSON`, with the
 *   ListTasks presence rules), so the normalizer compares like with like.
 * - Service parameters: headers become lower-case metadata (`a2a-version`, `a2a-extensions`);
 *   resume is `a2a-last-event-id`.
 * - Errors: the gRPC status and its `grpc-status-details-bin` ErrorInfo, rebuilt the way our
 *   clients do (`fromGrpcError`).
 * - Event numbers: the initial metadata `a2a-stream-first-seq`, then one more per event;
 *   numbering stops at a Task snapshot after the first event (a resynchronisation), and 0 (a
 *   direct Message) is unnumbered, as on every binding.
 * - Opening a stream: gRPC has no "stream accepted" signal before the first message (the
 *   server's initial metadata travels with it), and a refusal is a status with no message.
 *   So `open` waits for the first event or the status: an error status first is a refused
 *   stream. A resumed SubscribeToTask may legitimately have nothing to deliver yet, so it
 *   is handed over at once; a refusal then surfaces from its first read.
 * - Probes: an unknown RPC path (UNIMPLEMENTED ⇒ METHOD_NOT_FOUND); bytes that are not
 *   protobuf for SendMessage (the gRPC counterpart of malformed JSON ⇒ INVALID_ARGUMENT with
 *   reason PARSE_ERROR).
 * - Discovery is HTTP for every binding: the card is fetched from the HTTP server started
 *   beside the gRPC one, and must list this server as its GRPC interface.
 */
export class GrpcDriver implements Driver {
  readonly binding: string;
  private readonly client: Client;

  /**
   * @param target the gRPC address, `host:port` (`AgentInterface.url` of the GRPC interface)
   * @param cardUrl the agent card URL (HTTP)
   * @param onClose stops the servers under test
   * @param wire the service spoken (default: the v1.0 one)
   */
  constructor(
    readonly target: string,
    private readonly cardUrl: string,
    private readonly onClose: () => Promise<void> = async () => undefined,
    private readonly wire: GrpcWire = V1_GRPC_WIRE,
  ) {
    this.binding = wire.binding;
    this.client = new Client(target, credentials.createInsecure());
  }

  async call(operation: string, request: unknown, options?: CallOptions): Promise<CallResult> {
    try {
      const { op, method } = lookup(this.wire, operation, 'unary');
      const decoded = op.request.fromJSON(request ?? {});
      const response = await this.unary(method, this.wire.toWire(operation, decoded), metadataOf(options?.headers, this.wire.defaults));
      return { ok: true, result: (op as Extract<Operation, { kind: 'unary' }>).encodeJson(this.wire.fromWire(operation, response), decoded) ?? null };
    } catch (error) {
      return failed(error);
    }
  }

  async open(operation: string, request: unknown, options?: CallOptions): Promise<OpenResult> {
    try {
      const { op, method } = lookup(this.wire, operation, 'stream');
      const extra: Record<string, string> = options?.resumeAfterSeq === undefined ? {} : { [METADATA.lastEventId]: String(options.resumeAfterSeq) };
      const md = metadataOf({ ...options?.headers, ...extra }, this.wire.defaults);
      const wireRequest = this.wire.toWire(operation, op.request.fromJSON(request ?? {}));
      const call = this.client.makeServerStreamRequest(method.path, method.requestSerialize, method.responseDeserialize, wireRequest, md);
      const stream = grpcDriverStream(call as ClientReadableStream<StreamResponse>, this.wire);
      return options?.resumeAfterSeq === undefined ? await opened(stream) : { ok: true, stream };
    } catch (error) {
      return failed(error);
    }
  }

  async probe(kind: ProbeKind): Promise<CallResult> {
    try {
      const path = kind === 'unknown-method' ? `${this.wire.pathPrefix}NoSuchMethod` : this.wire.method('SendMessage')!.path;
      const bytes = kind === 'unknown-method' ? Buffer.alloc(0) : MALFORMED_PROTOBUF;
      await this.unary(
        { path, requestSerialize: identity, responseDeserialize: identity } as unknown as AnyMethod,
        bytes,
        metadataOf(undefined, this.wire.defaults),
      );
      return wireViolation(`probe ${kind}: the server answered with a result`);
    } catch (error) {
      return failed(error);
    }
  }

  async agentCard(): Promise<CallResult> {
    return fetchAgentCard(this.cardUrl, { protocolBinding: 'GRPC', url: this.target });
  }

  async close(): Promise<void> {
    this.client.close();
    await this.onClose();
  }

  /** One unary call on the wire; a failed status becomes the A2AError our clients rebuild. */
  private unary(method: AnyMethod, request: unknown, md: Metadata): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.client.makeUnaryRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request,
        md,
        (error: ServiceError | null, response?: unknown) => (error ? reject(fromGrpcError(error)) : resolve(response)),
      );
    });
  }
}

/** The core operation (for its codecs) and the generated gRPC method of an operation name. */
function lookup(wire: GrpcWire, operation: string, kind: Operation['kind']): { op: Operation; method: AnyMethod } {
  const op = operationByName(operation);
  const method = wire.method(operation);
  if (!method || op.kind !== kind) throw new Error(`the gRPC driver has no ${kind} RPC ${operation}`);
  return { op, method };
}

/**
 * The request metadata of one call: the default service parameters with the step's
 * overrides (`null` removes one), keys lower-cased as gRPC requires.
 * @internal
 */
export function metadataOf(headers: CallOptions['headers'], defaults: Readonly<Record<string, string>> = DEFAULT_HEADERS): Metadata {
  const md = new Metadata();
  for (const [key, value] of Object.entries(mergeHeaders({ ...defaults }, headers))) md.set(key.toLowerCase(), value);
  return md;
}

/**
 * Items in arrival order for one consumer; `cut()` ends it at once, even while a read is
 * pending (the client cut: nothing after it is delivered).
 * @internal
 */
export class ItemQueue<T> implements AsyncIterator<T> {
  private readonly items: T[] = [];
  private waiter: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | undefined;
  private state: { done: false } | { done: true; error?: unknown } = { done: false };

  push(item: T): void {
    if (this.state.done) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w.resolve({ value: item, done: false });
    } else this.items.push(item);
  }

  /** Ends after the buffered items; with `error`, the consumer gets it after them. */
  end(error?: unknown): void {
    if (this.state.done) return;
    this.state = error === undefined ? { done: true } : { done: true, error };
    if (this.waiter && this.items.length === 0) this.settle(this.waiter);
  }

  /** Ends now: buffered items are dropped, a pending read ends. */
  cut(): void {
    this.items.length = 0;
    this.state = { done: true };
    if (this.waiter) this.settle(this.waiter);
  }

  next(): Promise<IteratorResult<T>> {
    if (this.items.length > 0) return Promise.resolve({ value: this.items.shift()!, done: false });
    if (this.state.done) return new Promise((resolve, reject) => this.settle({ resolve, reject }));
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  private settle(w: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void }): void {
    this.waiter = undefined;
    const state = this.state as { done: true; error?: unknown };
    if (state.error !== undefined) w.reject(state.error);
    else w.resolve({ value: undefined, done: true });
  }
}

/** A grpc-js server-stream call as a {@link DriverStream}: numbering, client cut, A2A errors. */
function grpcDriverStream(call: ClientReadableStream<StreamResponse>, wire: GrpcWire): DriverStream {
  const queue = new ItemQueue<StreamItem>();
  let firstSeq: number | undefined;
  let index = 0;
  let counting = true;
  let cut = false;
  call.on('metadata', (md: Metadata) => {
    const raw = md.get(METADATA.streamFirstSeq)[0];
    if (raw === undefined) return;
    if (typeof raw === 'string' && /^\d+$/.test(raw)) firstSeq = Number(raw);
    else queue.end(new DriverFailure(WIRE_VIOLATION, `${METADATA.streamFirstSeq} ${JSON.stringify(String(raw))} is not an event number`));
  });
  call.on('data', (event: StreamResponse) => {
    let seq: number | undefined;
    if (counting && firstSeq !== undefined) {
      // A Task after the first event: the server resynchronised, numbering jumped.
      if (index > 0 && event.payload?.$case === 'task') counting = false;
      else seq = firstSeq + index;
    }
    index++;
    queue.push({ seq: seq === 0 ? undefined : seq, event: wire.eventToJson(event) });
  });
  call.on('error', (error: ServiceError) => queue.end(cut ? undefined : fromGrpcError(error)));
  call.on('end', () => queue.end());
  return {
    close: () => {
      cut = true;
      queue.cut();
      call.cancel();
    },
    [Symbol.asyncIterator]: () => queue,
  };
}

/** Where the servers of one gRPC binding under test live. */
export interface GrpcServersUnderTest {
  /** The gRPC address, `127.0.0.1:<port>`. */
  readonly target: string;
  readonly cardUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the gRPC server (standard and session services) for one handler on 127.0.0.1,
 * port 0, plus an HTTP server for card discovery whose card lists it as the GRPC interface.
 * @internal
 */
export async function startGrpcServersUnderTest(handler: RequestHandler): Promise<GrpcServersUnderTest> {
  const grpc = await startGrpcServer({ handler, host: '127.0.0.1', port: 0 });
  try {
    const http = await startA2AServer({
      handler,
      host: '127.0.0.1',
      port: 0,
      extraInterfaces: () => [{ protocolBinding: 'GRPC', url: grpc.url, protocolVersion: '1.0', tenant: '' }],
    });
    return {
      target: grpc.url,
      cardUrl: `${http.url}/.well-known/agent-card.json`,
      close: async () => {
        await Promise.all([grpc.close(1000), http.close()]);
      },
    };
  } catch (error) {
    await grpc.close(0);
    throw error;
  }
}

/** The gRPC binding: a fresh gRPC server (plus an HTTP server for the card) per scenario. */
export const grpcBinding: Binding = {
  name: 'grpc',
  requestEncoding: 'protobuf',
  async start(handler) {
    const servers = await startGrpcServersUnderTest(handler);
    return new GrpcDriver(servers.target, servers.cardUrl, () => servers.close());
  },
};

/**
 * The gRPC v0.3 binding: the same gRPC server, called on its v0.3 service `a2a.v1.A2AService`
 * the way v0.3 clients call it (no `a2a-version`; requests and answers converted with
 * @a2a-polyglot/v03). Scenarios v0.3 cannot express (`protocolVersion: "1.0"`) are skipped.
 */
export const grpcV03Binding: Binding = {
  name: 'grpc-v03',
  requestEncoding: 'protobuf',
  protocolVersion: '0.3',
  async start(handler) {
    const servers = await startGrpcServersUnderTest(handler);
    return new GrpcDriver(servers.target, servers.cardUrl, () => servers.close(), V03_GRPC_WIRE);
  },
};
