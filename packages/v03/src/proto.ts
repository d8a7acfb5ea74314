/**
 * `@a2a-polyglot/v03/proto` — the v0.3 protobuf converters: generated `a2a.v1` messages (v0.3
 * gRPC, and the ProtoJSON of v0.3 REST) to and from `lf.a2a.v1`. Used by the gRPC and REST
 * bindings.
 */
export * from './proto/index.js';
