/**
 * The gRPC clients these server tests drive the server with. They live in the client package
 * (`@a2a-polyglot/client/grpc`), which is not a declared devDependency here: the client's own
 * tests serve with `@a2a-polyglot/grpc`, and turbo refuses the package cycle both
 * declarations would make. Tests run from sources (jest and tsc map `@a2a-polyglot/*` to
 * `src/`), so no build order is needed.
 */
export { fromGrpcError, GrpcSessionClient, GrpcTransport, type GrpcStreamEvent, type SessionStreamEvent } from '@a2a-polyglot/client/grpc';
