/**
 * @a2a-polyglot/jsonrpc — the A2A JSON-RPC 2.0 binding.
 *
 * `createJsonRpcHandler` serves it over HTTP (unary JSON, streaming SSE). The transport-free
 * part, `JsonRpcDispatcher` / `dispatchJsonRpc`, turns a parsed JSON-RPC message into a
 * response, a batch, nothing (notification) or an opened stream, so the WebSocket binding,
 * which uses the same framing over text frames, reuses it unchanged. On HTTP the same URL also
 * serves the A2A v0.3 method names through the `@a2a-polyglot/v03` codec: the dispatcher's v0.3
 * dialect (`V03JsonRpcDialect`, beside v1.0's `V1JsonRpcDialect`).
 */
export * from './codec.js';
export * from './errors.js';
export * from './outcome.js';
export * from './dispatch.js';
export * from './jsonrpc-dialect.js';
export * from './jsonrpc-v03.js';
export * from './headers.js';
export * from './handler.js';
