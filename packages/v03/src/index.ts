/**
 * @a2a-polyglot/v03 — A2A v0.3 as codecs, not a second implementation: each v0.3 shape
 * (JSON-RPC objects with `kind`, the `a2a.v1` protobuf of v0.3 gRPC and REST, the v0.3 agent
 * card) is translated to the v1.0 model, handed to the one core, and the answer translated
 * back. Bindings pick these codecs when a request names no `A2A-Version` or `0.3`.
 */

// The two wire families of v0.3 have converters of the same names (taskToV03, …) over different
// types, so each is its own entry point: `@a2a-polyglot/v03/json` (JSON-RPC objects, the card) and
// `@a2a-polyglot/v03/proto` (the `a2a.v1` protobuf of gRPC and REST). Here, as namespaces.
export * as json from './json/index.js';
export * as proto from './proto/index.js';
