/**
 * @a2a-polyglot/server — composes the A2A HTTP bindings into one node:http listener: agent
 * card discovery, JSON-RPC at `${basePath}/rpc`, REST under `basePath`, CORS, and a
 * `startA2AServer` helper with prompt graceful close, `/healthz` and `/readyz` probes; optionally the WebSocket binding on
 * the same port (`websocket` option).
 */
export * from './options.js';
export * from './listener.js';
export * from './mounts.js';
export { AgentMounts, type MountedAgent } from './agent-mounts.js';
export * from './start-server.js';
export {
  CARD_COMPAT_VALUES,
  type CardCompat,
  type CardInterfaceOptions,
  cardForRequest,
  cardInterfaces,
  FALLBACK_CARD_PATH,
  LEGACY_CARD_PATH,
  WELL_KNOWN_CARD_PATH,
} from './agent-card.js';
export { type AgentIndexEntry, serveAgentIndex } from './agent-index.js';
export { publicBaseUrl } from './public-url.js';
export { LIVENESS_PATH, READINESS_PATH, type ReadinessSource, serveHealth } from './health.js';
export { METRICS_PATH, type MetricsSource, serveMetrics } from './metrics-endpoint.js';
export { type A2AUpgradeHandler, createA2AUpgradeHandler, websocketCardInterfaces, websocketPath } from './websocket.js';
export { createRateLimiter, type RateLimitBudget, type RateLimitOptions } from './rate-limiter.js';
