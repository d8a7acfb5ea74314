/**
 * `@a2a-polyglot/client/grpc` — the gRPC binding for the client, kept out of the main entry
 * so browser bundles never pull in @grpc/grpc-js. Register it with the client:
 *
 *     import { Client, GRPC_BINDING } from '@a2a-polyglot/client';
 *     import { grpcTransportFactory } from '@a2a-polyglot/client/grpc';
 *     const client = await Client.connect(url, { transports: { [GRPC_BINDING]: grpcTransportFactory } });
 *
 * It also holds the typed gRPC clients themselves, for code that wants the wire without the
 * `Client`: `GrpcTransport` (the standard `lf.a2a.v1.A2AService`, one method per RPC) and
 * `GrpcSessionClient` (the experimental multiplexed `lf.a2a.v1.A2ASessionService`).
 */
export { GrpcClientTransport, grpcTransportFactory, grpcTransportFactoryWith, V1_GRPC, type GrpcDialect } from './transports/grpc.js';
export { V03_GRPC } from './transports/grpc-v03.js';
export type { GrpcCallOptions, GrpcClientOptions } from './transports/grpc-channel.js';
export { fromGrpcError, isServiceError, readStatusDetails } from './transports/grpc-error.js';
export { GrpcTransport, type GrpcEventStream, type GrpcMethod, type GrpcStreamEvent, type SubscribeOptions } from './transports/grpc-service-client.js';
export { GrpcSessionClient, type GrpcSessionClientOptions } from './transports/grpc-session-client.js';
export { errorFromFrame, SessionStream, type SessionStreamEnd, type SessionStreamEvent } from './transports/grpc-session-stream.js';
