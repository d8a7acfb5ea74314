import { A2AError, A2AErrorCode, type Logger, type ServedHandler, silentLogger } from '@a2a-polyglot/core';
import type { Server, ServerWritableStream, ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import type { CallRouter } from './agent-router.js';
import { type EncodedRequest, withDeferredDeserializers } from './safe-decode.js';
import type { ServedRpc } from './served-rpc.js';
import { callAdmission } from './call-admission.js';
import type { GrpcDialect } from './grpc-dialect.js';
import { type OpenStreams, serveStream, type StreamLimits } from './stream-pump.js';
import { unaryHandler } from './unary-call.js';

/** Options of {@link addA2AService} (and of the v0.3 service beside it). */
export interface A2AServiceOptions {
  /** Where unexpected failures are logged. Default: nowhere (silent); the executor passes its pino logger. */
  readonly logger?: Logger;
  /**
   * Unflushed messages a server stream may have before it stops pulling events (see
   * GrpcCallSink). Default 16.
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

/** The RPC name of a generated method, from its path (`/lf.a2a.v1.A2AService/GetTask` → `GetTask`). */
function rpcName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * Registers a generated grpc-js service whose every RPC is served by the one
 * {@link RequestHandler} through the core's OPERATIONS table: decode, convert (per `dialect`),
 * call, convert back, encode. Shared by the v1.0 and v0.3 services, so both get the same
 * cancellation, backpressure, shutdown and error handling.
 *
 * Request deserializers are deferred (see `EncodedRequest`): each call first spends its
 * address point, then decodes, and malformed protobuf becomes INVALID_ARGUMENT with an
 * ErrorInfo (grpc-js alone would answer INTERNAL).
 */
export function serveService(
  server: Server,
  service: ServiceDefinition,
  handler: ServedHandler,
  dialect: GrpcDialect,
  options: A2AServiceOptions = {},
): A2AServiceBinding {
  const logger = options.logger ?? silentLogger;
  const limits: StreamLimits = {
    highWater: options.maxBufferedMessages ?? 16,
    stallTimeoutMs: options.streamStallTimeoutMs ?? DEFAULT_GRPC_STALL_TIMEOUT_MS,
  };
  const open: OpenStreams = new Set();
  const implementation: UntypedServiceImplementation = {};
  for (const [key, method] of Object.entries(service)) {
    const route = dialect.route(rpcName(method.path));
    const rpc: ServedRpc = { route, admit: callAdmission(handler, options.router, route), dialect, logger };
    const op = route.op;
    implementation[key] =
      op.kind === 'unary'
        ? unaryHandler(op, rpc)
        : (call: ServerWritableStream<EncodedRequest, unknown>): void => {
            void serveStream(op, rpc, limits, open, call);
          };
  }
  server.addService(withDeferredDeserializers(service), implementation);
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
