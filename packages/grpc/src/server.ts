import { checkReadiness, type ReadinessReport, type ServedHandler } from '@a2a-polyglot/core';
import { Server, ServerCredentials, type ServerOptions } from '@grpc/grpc-js';
import { clientInputRejectionsAsInvalidArgument } from './client-input-rejections.js';
import { addA2AService, addV03A2AService, type A2AServiceBinding, type A2AServiceOptions } from './a2a-service.js';
import { addHealthService, type HealthServiceBinding } from './health-service.js';
import { addA2ASessionService, type A2ASessionBinding, type SessionServiceOptions, type SessionStats } from './session/session-service.js';

/** Default `grpc.max_receive_message_length`: 4 MiB, grpc-js's own default, stated explicitly. */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** Options of {@link createGrpcServer}. */
export interface GrpcServerOptions extends A2AServiceOptions, SessionServiceOptions {
  /**
   * Largest request message accepted (`grpc.max_receive_message_length`). Larger ones are
   * refused by grpc-js before any byte reaches A2A code: RESOURCE_EXHAUSTED. Default 4 MiB.
   */
  readonly maxReceiveMessageBytes?: number;
  /**
   * What the standard health service (`grpc.health.v1.Health`, always served) reports.
   * Default: SERVING unless the handler is draining. The executor adds its backend probes.
   */
  readonly readiness?: () => Promise<ReadinessReport>;
  /** How often a health Watch re-evaluates readiness. Default 5000 ms. */
  readonly healthWatchIntervalMs?: number;
  /** Serve the experimental session service too. Default true. */
  readonly session?: boolean;
  /** Serve the A2A v0.3 service `a2a.v1.A2AService` too (for v0.3 clients). Default true. */
  readonly v03?: boolean;
  /** Further grpc-js server options (keepalive, ...); the size limits above win. */
  readonly serverOptions?: ServerOptions;
}

/** A grpc-js server with the A2A services registered, not yet listening. */
export interface A2AGrpcServer {
  readonly server: Server;
  readonly service: A2AServiceBinding;
  /** The v0.3 service `a2a.v1.A2AService`; undefined when `v03: false`. */
  readonly v03Service: A2AServiceBinding | undefined;
  /** Undefined when `session: false`. */
  readonly sessions: A2ASessionBinding | undefined;
  readonly health: HealthServiceBinding;
  /**
   * Graceful stop: open streams and sessions end with UNAVAILABLE at once (tasks keep
   * running; the handler is not shut down, it belongs to the caller), then grpc-js drains
   * for at most `graceMs` before forcing the remaining calls closed.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * Creates a grpc-js server serving `lf.a2a.v1.A2AService` (and, unless disabled, the A2A v0.3
 * service `a2a.v1.A2AService` and the experimental `lf.a2a.v1.A2ASessionService`) from one
 * RequestHandler, plus the standard `grpc.health.v1.Health` service. Bind it yourself, or
 * use {@link startGrpcServer}.
 */
export function createGrpcServer(handler: ServedHandler, options: GrpcServerOptions = {}): A2AGrpcServer {
  const server = new Server({
    ...options.serverOptions,
    // First, so it receives grpc-js's base call (see clientInputRejectionsAsInvalidArgument).
    interceptors: [clientInputRejectionsAsInvalidArgument, ...(options.serverOptions?.interceptors ?? [])],
    'grpc.max_receive_message_length': options.maxReceiveMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': options.maxSendMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
  });
  const service = addA2AService(server, handler, options);
  const v03Service = options.v03 === false ? undefined : addV03A2AService(server, handler, options);
  const sessions = options.session === false ? undefined : addA2ASessionService(server, handler, options);
  const health = addHealthService(server, {
    readiness: options.readiness ?? (() => checkReadiness({ draining: () => handler.draining })),
    watchIntervalMs: options.healthWatchIntervalMs,
  });
  return {
    server,
    service,
    v03Service,
    sessions,
    health,
    async close(graceMs = 5000) {
      health.shutdown();
      service.shutdown();
      v03Service?.shutdown();
      sessions?.shutdown();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        timer.unref?.();
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

/** Options of {@link startGrpcServer}. */
export interface StartGrpcServerOptions extends GrpcServerOptions {
  readonly handler: ServedHandler;
  /** Interface to listen on. Default `0.0.0.0`. */
  readonly host?: string;
  /** Port; 0 picks a free one. Default 50051 (the executor's `GRPC_PORT` default). */
  readonly port?: number;
  /** Default: insecure (plaintext, for local use or behind a TLS-terminating proxy). */
  readonly credentials?: ServerCredentials;
}

/** A listening A2A gRPC server. */
export interface RunningGrpcServer extends A2AGrpcServer {
  /** The port actually bound (useful with port 0). */
  readonly port: number;
  readonly host: string;
  /** `host:port`: the form of `AgentInterface.url` for `protocolBinding: 'GRPC'`. */
  readonly url: string;
  /** Session totals (zeros when the session service is off). */
  sessionStats(): SessionStats;
}

/**
 * Starts the A2A gRPC server: what a host process (e.g. the executor service, on
 * `GRPC_PORT`) calls, then lists `{ protocolBinding: 'GRPC', url }` in its agent card.
 */
export async function startGrpcServer(options: StartGrpcServerOptions): Promise<RunningGrpcServer> {
  const created = createGrpcServer(options.handler, options);
  const host = options.host ?? '0.0.0.0';
  const address = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const port = await new Promise<number>((resolve, reject) =>
    created.server.bindAsync(`${address}:${options.port ?? 50051}`, options.credentials ?? ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    ...created,
    port,
    host,
    url: `${address}:${port}`,
    sessionStats: () => created.sessions?.stats() ?? { openSessions: 0, openOperations: 0, pendingFrames: 0, maxPendingFrames: 0, framesWritten: 0 },
  };
}
