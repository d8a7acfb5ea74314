import { constants as http2Constants } from 'node:http2';
import {
  A2AError,
  A2AErrorCode,
  callContext,
  silentLogger,
  type CallContext,
  type EventStream,
  type Logger,
  type Operation,
  type ProtocolVersion,
  type RequestHandler,
  type StreamOperation,
  type UnaryOperation,
} from '@a2a-polyglot/core';
import {
  Metadata,
  type sendUnaryData,
  type Server,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceDefinition,
  type ServiceError,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import type { CallRouter } from './agent-router.js';
import { BackpressureWriter } from './backpressure-writer.js';
import { failure } from './failure.js';
import { grpcPeer } from './peer.js';
import { extensionsMetadata, METADATA, metadataHeaders, parseLastEventId } from './metadata.js';
import { UndecodableRequest, withSafeDeserializers } from './safe-decode.js';

/** Options of {@link addA2AService} (and of the v0.3 service beside it). */
export interface A2AServiceOptions {
  /** Where unexpected failures are logged. Default: nowhere (silent); the executor passes its pino logger. */
  readonly logger?: Logger;
  /**
   * Unflushed messages a server stream may have before it stops pulling events (see
   * BackpressureWriter). Default 16.
   */
  readonly maxBufferedMessages?: number;
  /**
   * How long a server stream may stay blocked on a client that does not read (HTTP/2 flow
   * control, unflushed messages at the bound) before the call is ended: the client gets
   * RESOURCE_EXHAUSTED (the HTTP/2 stream is reset with ENHANCE_YOUR_CALM, since a status
   * cannot pass the unread messages), the event-log cursor is released, and the task keeps
   * running; the client can resubscribe. Default {@link DEFAULT_GRPC_STALL_TIMEOUT_MS} (30 s),
   * as the WebSocket binding; 0 disables.
   */
  readonly streamStallTimeoutMs?: number;
  /**
   * Several agents on one port: picks each call's handler (see `agentRouter`). Default: every
   * call goes to the handler the service was registered with.
   */
  readonly router?: CallRouter;
}

/** Default of {@link A2AServiceOptions.streamStallTimeoutMs}: 30 s, like the WebSocket binding. */
export const DEFAULT_GRPC_STALL_TIMEOUT_MS = 30_000;

/** Handle on a registered service: shutdown and introspection. */
export interface A2AServiceBinding {
  /** Ends every open server stream with UNAVAILABLE (tasks keep running). Used by `close()`. */
  shutdown(): void;
  /** Server streams currently open. */
  readonly openStreams: number;
}

/**
 * How one generated RPC reaches the core: its OPERATIONS entry, and the converters between
 * the generated message types and the v1.0 model the core speaks (identity for v1.0).
 */
export interface RpcRoute {
  readonly op: Operation;
  /** Decoded wire request → the operation's request. May throw an A2AError (bad input). */
  readonly toCore: (request: any) => unknown;
  /** The operation's response (or one stream event) → the wire message. */
  readonly fromCore: (response: any) => unknown;
}

/**
 * What one protocol generation's gRPC service adds to the shared serving code: which
 * operation and converters each RPC uses, the generation its calls are decoded in (checked by
 * the core against the `a2a-version` metadata) and how a failed call's status message reads.
 */
export interface ServiceWire {
  /** The route of an RPC, by its name (`GetTask`). */
  route(rpc: string): RpcRoute;
  /** The generation of the codec (`CallContext.wireVersion`); undefined is v1.0. */
  readonly wireVersion?: ProtocolVersion;
  /** Status message of a failed call. Default: the error's message. */
  readonly statusMessage?: (error: A2AError) => string;
}

/** The RPC name of a generated method, from its path (`/lf.a2a.v1.A2AService/GetTask` → `GetTask`). */
function rpcName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * Registers a generated grpc-js service whose every RPC is served by the one
 * {@link RequestHandler} through the core's OPERATIONS table: decode, convert (per `wire`),
 * call, convert back, encode. Shared by the v1.0 and v0.3 services, so both get the same
 * cancellation, backpressure, shutdown and error handling.
 *
 * Request deserializers are wrapped so malformed protobuf becomes INVALID_ARGUMENT with an
 * ErrorInfo (grpc-js alone would answer INTERNAL).
 */
export function serveService(
  server: Server,
  service: ServiceDefinition,
  handler: RequestHandler,
  wire: ServiceWire,
  options: A2AServiceOptions = {},
): A2AServiceBinding {
  const logger = options.logger ?? silentLogger;
  const highWater = options.maxBufferedMessages ?? 16;
  const stallTimeoutMs = options.streamStallTimeoutMs ?? DEFAULT_GRPC_STALL_TIMEOUT_MS;
  const open = new Set<(error: A2AError) => void>();
  const implementation: UntypedServiceImplementation = {};
  const pick = target(handler, options.router);
  for (const [key, method] of Object.entries(service)) {
    const route = wire.route(rpcName(method.path));
    implementation[key] =
      route.op.kind === 'unary'
        ? unaryHandler(route.op, route, pick, logger, wire)
        : streamHandler(route.op, route, pick, logger, { highWater, stallTimeoutMs }, open, wire);
  }
  server.addService(withSafeDeserializers(service), implementation);
  return {
    shutdown() {
      const unavailable = new A2AError(A2AErrorCode.Unavailable, 'The server is shutting down');
      for (const stop of [...open]) stop(unavailable);
    },
    get openStreams() {
      return open.size;
    },
  };
}

/** Picks the handler (and the tenant it sees) of one call from its metadata and decoded core request. */
type Target = (metadata: Metadata, coreRequest: unknown) => { handler: RequestHandler; tenant?: string };

/** The {@link Target} of a service: the router's choice, or always `handler`. */
function target(handler: RequestHandler, router: CallRouter | undefined): Target {
  if (!router) return () => ({ handler });
  return (metadata, coreRequest) => router(metadata, (coreRequest as { tenant?: string } | undefined)?.tenant ?? '');
}

/** Builds the CallContext of one call from its metadata, aborting when the call ends early. */
function contextOf(
  call: ServerWritableStream<unknown, unknown>,
  signal: AbortSignal,
  wire: ServiceWire,
  tenant: string | undefined,
  logger: Logger,
): CallContext {
  return callContext('GRPC', metadataHeaders(call.metadata), { signal, wireVersion: wire.wireVersion, pathTenant: tenant, logger, ...grpcPeer(call) });
}

/**
 * The CallContext of a unary call. Its signal (client cancel or deadline: the core stops
 * waiting; a running task is not canceled unless the handler runs with background execution
 * off) is made when the core first reads it: most calls
 * are answered before anything waits, and then cost no AbortController.
 */
function lazyContextOf(
  call: ServerUnaryCall<unknown, unknown>,
  wire: ServiceWire,
  tenant: string | undefined,
  logger: Logger,
): { ctx: CallContext; release: () => void } {
  const ctx = callContext('GRPC', metadataHeaders(call.metadata), { wireVersion: wire.wireVersion, pathTenant: tenant, logger, ...grpcPeer(call) });
  let controller: AbortController | undefined;
  // Dropped once the call is answered: a context that outlives its call until the next full
  // GC must not keep the call (request, metadata, stream) alive with it.
  let source: ServerUnaryCall<unknown, unknown> | undefined = call;
  Object.defineProperty(ctx, 'signal', {
    enumerable: true,
    get(): AbortSignal {
      if (!controller) {
        const made = new AbortController();
        controller = made;
        if (source?.cancelled) made.abort();
        else source?.once('cancelled', () => made.abort());
      }
      return controller.signal;
    },
  });
  return { ctx, release: () => (source = undefined) };
}

function unaryHandler(op: UnaryOperation, route: RpcRoute, pick: Target, logger: Logger, wire: ServiceWire) {
  return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>): void => {
    const request = call.request;
    if (request instanceof UndecodableRequest) {
      callback(failure(logger, request.error, undefined, op.name, wire.statusMessage) as ServiceError);
      return;
    }
    let ctx: CallContext | undefined;
    let release: () => void = () => undefined;
    // Converting (bad v0.3 resource name) and routing (unknown agent) may throw: answered like any failed call.
    Promise.resolve()
      .then(() => {
        const coreRequest = route.toCore(request);
        const { handler, tenant } = pick(call.metadata, coreRequest);
        ({ ctx, release } = lazyContextOf(call, wire, tenant, logger));
        return op.invoke(handler, coreRequest, ctx);
      })
      .then(
        (response) => {
          release();
          const md = extensionsMetadata(ctx?.activatedExtensions);
          if (md && !call.cancelled) call.sendMetadata(md);
          callback(null, route.fromCore(response));
        },
        (error: unknown) => {
          release();
          callback(failure(logger, error, ctx, op.name, wire.statusMessage) as ServiceError);
        },
      );
  };
}

/** Flow limits of one server stream: unflushed messages, and how long it may stay blocked. */
interface StreamLimits {
  readonly highWater: number;
  readonly stallTimeoutMs: number;
}

function streamHandler(
  op: StreamOperation,
  route: RpcRoute,
  pick: Target,
  logger: Logger,
  limits: StreamLimits,
  open: Set<(error: A2AError) => void>,
  wire: ServiceWire,
) {
  return (call: ServerWritableStream<unknown, unknown>): void => {
    void serveStream(op, route, pick, logger, limits, open, wire, call);
  };
}

/**
 * One server-streaming call: open the core's event stream, then write each event as the
 * client can take it. The first event's number goes out as initial metadata
 * `a2a-stream-first-seq` (gRPC messages have no per-message metadata; events of a stream are
 * numbered consecutively, see README), the last one as trailer `a2a-last-seq`.
 */
async function serveStream(
  op: StreamOperation,
  route: RpcRoute,
  pick: Target,
  logger: Logger,
  limits: StreamLimits,
  open: Set<(error: A2AError) => void>,
  wire: ServiceWire,
  call: ServerWritableStream<unknown, unknown>,
): Promise<void> {
  const controller = new AbortController();
  let stream: EventStream | undefined;
  let writer: BackpressureWriter<unknown> | undefined;
  let stopError: A2AError | undefined;
  let ctx: CallContext | undefined;
  const release = () => {
    stream?.close();
    writer?.close();
  };
  // Client cancel, deadline or peer loss: stop delivery. The task itself keeps running (with
  // background execution off, the core cancels a streaming send's task on this abort).
  const onCancelled = () => {
    controller.abort();
    release();
  };
  const stop = (error: A2AError) => {
    stopError = error;
    release();
  };
  call.on('cancelled', onCancelled);
  open.add(stop);
  try {
    const request = call.request;
    if (request instanceof UndecodableRequest) throw request.error;
    const resumeAfterSeq = op.name === 'SubscribeToTask' ? parseLastEventId(call.metadata) : undefined;
    const coreRequest = route.toCore(request);
    const { handler, tenant } = pick(call.metadata, coreRequest);
    ctx = contextOf(call, controller.signal, wire, tenant, logger);
    stream = await op.open(handler, coreRequest, ctx, resumeAfterSeq);
    if (controller.signal.aborted || stopError) stream.close();
    writer = new BackpressureWriter(call, limits.highWater, {
      stallTimeoutMs: limits.stallTimeoutMs,
      onStall: () => {
        (ctx?.logger ?? logger).warn({ operation: op.name, stallTimeoutMs: limits.stallTimeoutMs }, 'gRPC stream ended: the client stopped reading');
        stop(
          new A2AError(
            A2AErrorCode.Unavailable,
            `The client read nothing for ${limits.stallTimeoutMs} ms; the stream was ended (the task continues: resubscribe to follow it)`,
          ),
        );
        resetStalledCall(call);
      },
    });
    let lastSeq: number | undefined;
    pump: for (;;) {
      await writer.ready();
      if (controller.signal.aborted || stopError) break;
      // Every ready event at once; each still waits for room in the writer.
      const batch = await stream.nextBatch();
      if (!batch || controller.signal.aborted || stopError) break;
      for (const { seq, event } of batch) {
        if (!writer.writable) await writer.ready();
        if (controller.signal.aborted || stopError) break pump;
        if (lastSeq === undefined) {
          const md = extensionsMetadata(ctx.activatedExtensions) ?? new Metadata();
          md.set(METADATA.streamFirstSeq, String(seq));
          call.sendMetadata(md);
        }
        writer.write(route.fromCore(event));
        lastSeq = seq;
      }
    }
    if (stopError) throw stopError;
    if (!controller.signal.aborted) {
      const trailers = new Metadata();
      if (lastSeq !== undefined) trailers.set(METADATA.streamLastSeq, String(lastSeq));
      call.end(trailers);
    }
  } catch (error) {
    if (!call.cancelled) call.emit('error', failure(logger, error, ctx, op.name, wire.statusMessage));
  } finally {
    release();
    open.delete(stop);
    call.off('cancelled', onCancelled);
  }
}

/**
 * Resets the HTTP/2 stream of a call whose client stopped reading, with ENHANCE_YOUR_CALM
 * (grpc-js clients report RESOURCE_EXHAUSTED). Needed because a status travels in trailers,
 * which HTTP/2 sends only after the unread messages, that is never; the reset drops those
 * buffers. grpc-js has no public way to reach the stream, so this walks its call chain and
 * does nothing when the shape is not the expected one (the status then ends the call if the
 * client ever reads again).
 */
function resetStalledCall(call: ServerWritableStream<unknown, unknown>): void {
  let link: unknown = (call as unknown as { call?: unknown }).call;
  for (let depth = 0; depth < 8 && link && typeof link === 'object'; depth++) {
    const stream = (link as { stream?: { close?: (code: number) => void; destroyed?: boolean } }).stream;
    if (stream && typeof stream.close === 'function') {
      if (!stream.destroyed) stream.close(http2Constants.NGHTTP2_ENHANCE_YOUR_CALM);
      return;
    }
    link = (link as { nextCall?: unknown }).nextCall;
  }
}
