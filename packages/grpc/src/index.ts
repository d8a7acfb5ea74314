/**
 * @a2a-polyglot/grpc — the A2A v1.0 gRPC binding.
 *
 * Server: the standard `lf.a2a.v1.A2AService` (all 11 RPCs), the A2A v0.3 service
 * `a2a.v1.A2AService` (through the @a2a-polyglot/v03 converters) and the EXPERIMENTAL
 * multiplexed `lf.a2a.v1.A2ASessionService`, both served from one core RequestHandler
 * (`createGrpcServer`, `startGrpcServer`, or `addA2AService` / `addA2ASessionService` on
 * your own grpc-js server). The clients of both services live in the client package
 * (`@a2a-polyglot/client/grpc`: `GrpcTransport`, `GrpcSessionClient`); the metadata keys both
 * sides use are core's `GRPC_METADATA`. Errors travel as gRPC status + `grpc-status-details-bin`
 * (google.rpc.Status with ErrorInfo and BadRequest). See README.md for metadata keys, the
 * session protocol and limits.
 */
export { agentRouter, type CallRouter, type RoutedCall } from './agent-router.js';
export { addA2AService, addV03A2AService, type A2AServiceBinding, type A2AServiceOptions } from './a2a-service.js';
export { DEFAULT_GRPC_STALL_TIMEOUT_MS } from './serve-service.js';
export { v03StatusMessage } from './grpc-v03.js';
export {
  addA2ASessionService,
  type A2ASessionBinding,
  type SessionServiceOptions,
  type SessionStats,
} from './session/session-service.js';
export {
  createGrpcServer,
  DEFAULT_MAX_MESSAGE_BYTES,
  startGrpcServer,
  type A2AGrpcServer,
  type GrpcServerOptions,
  type RunningGrpcServer,
  type StartGrpcServerOptions,
} from './server.js';
export { addHealthService, HEALTH_SERVICE_NAMES, type HealthServiceBinding, type HealthServiceOptions } from './health-service.js';
export { metadataHeaders } from './metadata.js';
export { rpcStatusOf, toGrpcError, type GrpcErrorStatus } from './grpc-error.js';
export { clientInputRejectionsAsInvalidArgument } from './client-input-rejections.js';
