import { A2AError, A2AErrorCode, silentLogger, type Logger, type ServedHandler } from '@a2a-polyglot/core';
import { A2ASessionServiceService, SessionResponse } from '@a2a-polyglot/model/session';
import type { Server, ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import type { A2AServiceOptions } from '../serve-service.js';
import { asA2AError } from '../failure.js';
import { toGrpcError } from '../grpc-error.js';
import { withSafeDeserializers } from '../safe-decode.js';
import { ServerSession, type SessionCall } from './server-session.js';
import { type RouteOperation, sessionRoute } from './session-route.js';

/**
 * Options of {@link addA2ASessionService}. `router`: several agents on one port, routed as the
 * standard service routes (the same router, see `sessionRoute`).
 */
export interface SessionServiceOptions extends Pick<A2AServiceOptions, 'router'> {
  /** Sessions open at once on this server; one more is refused with RESOURCE_EXHAUSTED. Default 1000. */
  readonly maxSessions?: number;
  /** Operations open at once per session. Default 100. */
  readonly maxOperationsPerSession?: number;
  /** Unflushed outbound frames per session before producers pause. Default 32. */
  readonly maxBufferedFrames?: number;
  /**
   * Largest response message (`grpc.max_send_message_length`), default 4 MiB. A session frame
   * over it fails only its own operation (PayloadTooLarge), not the whole session.
   */
  readonly maxSendMessageBytes?: number;
  /** Where unexpected failures are logged. Default: nowhere (silent); the executor passes its pino logger. */
  readonly logger?: Logger;
}

/** Totals over the open sessions (health endpoints, tests of the memory bound). */
export interface SessionStats {
  readonly openSessions: number;
  readonly openOperations: number;
  /** Outbound frames handed to grpc-js and not flushed yet, all sessions. */
  readonly pendingFrames: number;
  /** Highest unflushed-frame count any open session has reached. */
  readonly maxPendingFrames: number;
  /** Frames written by the open sessions. */
  readonly framesWritten: number;
}

/** Handle on the registered session service. */
export interface A2ASessionBinding {
  /** Every open operation gets an UNAVAILABLE error frame, then every session ends UNAVAILABLE; new sessions are refused. */
  shutdown(): void;
  stats(): SessionStats;
}

/**
 * Registers the EXPERIMENTAL `lf.a2a.v1.A2ASessionService` (one bidirectional call
 * multiplexing many operations, see README) on a grpc-js server, backed by the same
 * RequestHandler as the standard service (with `options.router`, by the same agents).
 */
export function addA2ASessionService(server: Server, handler: ServedHandler, options: SessionServiceOptions = {}): A2ASessionBinding {
  const logger = options.logger ?? silentLogger;
  const maxSessions = options.maxSessions ?? 1000;
  const limits = {
    maxOperations: options.maxOperationsPerSession ?? 100,
    maxBufferedFrames: options.maxBufferedFrames ?? 32,
    maxFrameBytes: options.maxSendMessageBytes ?? 4 * 1024 * 1024,
  };
  const sessions = new Set<ServerSession>();
  let shuttingDown = false;

  const implementation: UntypedServiceImplementation = {
    session(call: SessionCall) {
      if (shuttingDown || sessions.size >= maxSessions) {
        const error = shuttingDown
          ? new A2AError(A2AErrorCode.Unavailable, 'The server is shutting down')
          : new A2AError(A2AErrorCode.ResourceExhausted, `Too many open sessions on this server (limit ${maxSessions})`);
        call.emit('error', toGrpcError(error));
        return;
      }
      let route: RouteOperation;
      try {
        route = sessionRoute(handler, options.router, call.metadata);
      } catch (error) {
        // An a2a-agent naming no agent served here: refused before any operation, as the standard service refuses the call.
        call.emit('error', toGrpcError(asA2AError(logger, error, 'session routing')));
        return;
      }
      sessions.add(new ServerSession(call, route, limits, logger, (s) => sessions.delete(s)));
    },
  };
  const safe = withSafeDeserializers(A2ASessionServiceService);
  const sessionMethod = safe.session;
  if (!sessionMethod) throw new Error('The generated A2ASessionService has no session method');
  const definition: ServiceDefinition = {
    ...safe,
    // Frames arrive pre-encoded (the session checks their size first); anything else is encoded here.
    session: {
      ...sessionMethod,
      responseSerialize: (frame: Buffer | SessionResponse) => (Buffer.isBuffer(frame) ? frame : Buffer.from(SessionResponse.encode(frame).finish())),
    },
  };
  server.addService(definition, implementation);

  return {
    shutdown() {
      shuttingDown = true;
      for (const session of [...sessions]) session.shutdown();
    },
    stats() {
      let openOperations = 0;
      let pendingFrames = 0;
      let maxPendingFrames = 0;
      let framesWritten = 0;
      for (const s of sessions) {
        openOperations += s.openOperations;
        pendingFrames += s.pendingFrames;
        maxPendingFrames = Math.max(maxPendingFrames, s.maxPendingFrames);
        framesWritten += s.framesWritten;
      }
      return { openSessions: sessions.size, openOperations, pendingFrames, maxPendingFrames, framesWritten };
    },
  };
}
