/**
 * `@a2a-polyglot/client/grpc` — the gRPC binding for the client, kept out of the main entry
 * so browser bundles never pull in @grpc/grpc-js. Register it with the client:
 *
 *     import { Client, GRPC_BINDING } from '@a2a-polyglot/client';
 *     import { grpcTransportFactory } from '@a2a-polyglot/client/grpc';
 *     const client = await Client.connect(url, { transports: { [GRPC_BINDING]: grpcTransportFactory } });
 */
export { GrpcClientTransport, grpcTransportFactory, grpcTransportFactoryWith, V1_GRPC, type GrpcDialect } from './transports/grpc.js';
export { V03_GRPC } from './transports/grpc-v03.js';
