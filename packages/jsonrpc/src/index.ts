/**
 * @a2a-polyglot/jsonrpc — the A2A JSON-RPC 2.0 binding.
 *
 * `createJsonRpcHandler` serves it over HTTP (unary JSON, streaming SSE). The transport-free
 * part, `JsonRpcDispatcher` / `dispatchJsonRpc`, turns a parsed JSON-RPC message into a
 * response, a batch, nothing (notification) or an opened stream, so the WebSocket binding,
 * which uses the same framing over text frames, reuses it unchanged.
 */
export * from './codec.js';
export * from './errors.js';
export * from './dispatch.js';
export * from './headers.js';
export * from './handler.js';
