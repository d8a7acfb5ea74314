/**
 * @a2a-polyglot/websocket — the A2A WebSocket binding (server side).
 *
 * JSON-RPC 2.0 in text frames with the HTTP JSON-RPC binding's method names and params,
 * dispatched through the same `JsonRpcDispatcher`; many operations multiplexed on one
 * socket by request id; streams as numbered frames closed by `streamEnd`, stoppable with
 * `cancelStream` and resumable with `resumeAfterSeq`; heartbeats, a bounded send buffer and
 * per-socket limits. Frames and close codes: README.md.
 */
export * from './protocol.js';
export * from './options.js';
export { createWebSocketBinding, refuse, type CreateWebSocketBindingOptions, type WebSocketBinding } from './binding.js';
export type { ConnectionStats } from './connection.js';
export { createUpgradeListener, type UpgradeListener } from './upgrade.js';
export { websocketExtraInterfaces, websocketInterface, websocketUrl } from './card.js';
export { checkHandshake, VERSION_QUERY_PARAM } from './handshake.js';
