import { fromGrpcError } from '@a2a-polyglot/client/grpc';
import { GRPC_METADATA } from '@a2a-polyglot/core';
import type { StreamResponse } from '@a2a-polyglot/model';
import { Client, credentials, type ClientReadableStream, type Metadata, type ServiceError } from '@grpc/grpc-js';
import {
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
import { startGrpcServersUnderTest } from './grpc-servers.js';
import { lookup, MALFORMED_PROTOBUF, metadataOf, rawMethod, V03_GRPC_WIRE, V1_GRPC_WIRE, type GrpcWire, type UnaryWireMethod } from './grpc-wire.js';
import { fetchAgentCard, WIRE_VIOLATION, wireViolation } from './http-common.js';
import { ItemQueue, queuedDriverStream } from './item-queue.js';
import { unaryResultJson } from './unary-result.js';

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
      return { ok: true, result: unaryResultJson(op, this.wire.fromWire(operation, response), decoded) };
    } catch (error) {
      return failed(error);
    }
  }

  async open(operation: string, request: unknown, options?: CallOptions): Promise<OpenResult> {
    try {
      const { op, method } = lookup(this.wire, operation, 'stream');
      const extra: Record<string, string> = options?.resumeAfterSeq === undefined ? {} : { [GRPC_METADATA.lastEventId]: String(options.resumeAfterSeq) };
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
      const path = kind === 'unknown-method' ? `${this.wire.pathPrefix}NoSuchMethod` : lookup(this.wire, 'SendMessage', 'unary').method.path;
      const bytes = kind === 'unknown-method' ? Buffer.alloc(0) : MALFORMED_PROTOBUF;
      await this.unary(rawMethod(path), bytes, metadataOf(undefined, this.wire.defaults));
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
  private unary(method: UnaryWireMethod, request: unknown, md: Metadata): Promise<unknown> {
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

/** A grpc-js server-stream call as a {@link DriverStream}: numbering, client cut, A2A errors. */
function grpcDriverStream(call: ClientReadableStream<StreamResponse>, wire: GrpcWire): DriverStream {
  const queue = new ItemQueue<StreamItem>();
  let firstSeq: number | undefined;
  let index = 0;
  let counting = true;
  let cut = false;
  call.on('metadata', (md: Metadata) => {
    const raw = md.get(GRPC_METADATA.streamFirstSeq)[0];
    if (raw === undefined) return;
    if (typeof raw === 'string' && /^\d+$/.test(raw)) firstSeq = Number(raw);
    else queue.end(new DriverFailure(WIRE_VIOLATION, `${GRPC_METADATA.streamFirstSeq} ${JSON.stringify(String(raw))} is not an event number`));
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
  return queuedDriverStream(queue, () => {
    cut = true;
    call.cancel();
  });
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
