/**
 * @a2a-polyglot/server — composes the A2A HTTP bindings into one node:http listener: agent
 * card discovery, JSON-RPC at `${basePath}/rpc`, REST under `basePath`, CORS, and a
 * `startA2AServer` helper with prompt graceful close, `/healthz` and `/readyz` probes, Host and
 * Origin checks for browsers (`browserAccessCheck`); optionally the WebSocket binding on
 * the same port (`websocket` option). The same routes, checks and probes as one fetch-standard
 * handler (`createA2AFetchHandler`, and the Lambda adapters over it).
 */
export * from './options.js';
export * from './listener.js';
export { type A2AFetchHandler, type A2AFetchHandlerOptions, createA2AFetchHandler } from './fetch-handler.js';
export {
  type A2ALambdaHandler,
  type A2ALambdaHandlerOptions,
  type A2AStreamingLambdaHandlerOptions,
  type AwsLambdaStreaming,
  createA2ALambdaHandler,
  createA2AStreamingLambdaHandler,
  type LambdaContextLike,
  type LambdaHttpEvent,
  type LambdaHttpEventV2,
  type LambdaResponseStream,
  type LambdaRestEventV1,
  type LambdaResultV1,
  type LambdaResultV2,
  type LambdaStreamingHandler,
  type LambdaStreamPrelude,
} from './lambda-handler.js';
export * from './mounts.js';
export { type A2AFastifyPluginOptions, a2aFastifyPlugin, type FastifyInstanceLike } from './fastify-plugin.js';
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
export { type AgentIndexEntry, agentIndexAnswer } from './agent-index.js';
export { API_CATALOG_MEDIA_TYPE, API_CATALOG_PATH, API_CATALOG_PROFILE, apiCatalogAnswer } from './api-catalog.js';
export type { ServedAgents } from './listing.js';
export { type ServiceListingOptions, type ServiceListings, serviceListings, withServiceListings } from './service-listings.js';
export { publicBaseUrl } from './public-url.js';
export { type ArrivingRequest, fetchArrivingRequest, nodeArrivingRequest, type RequestArrival } from './arriving-request.js';
export { accessRefusal, type BrowserAccess, type BrowserAccessCheck, browserAccessCheck } from './browser-access.js';
export { corsHeaders, preflightResult } from './cors.js';
export { type GateOutcome, type GateRoute, requestGate } from './request-gate.js';
export { healthAnswer, LIVENESS_PATH, READINESS_PATH, type ReadinessSource, readinessOf } from './health.js';
export { METRICS_PATH, type MetricsSource, metricsAnswer } from './metrics-endpoint.js';
export { type ProbeRoutes, probeRoutes } from './probes.js';
export { type A2AUpgradeHandler, createA2AUpgradeHandler, websocketCardInterfaces, websocketPath } from './websocket.js';
export { DEFAULT_RATE_LIMIT_MAX_KEYS } from './bounded-memory-limiter.js';
export { createRateLimiter, type RateLimitBudget, type RateLimitOptions } from './rate-limiter.js';
export {
  DEFAULT_FORWARDED_HEADER,
  type ForwardedHeader,
  invalidProxyEntries,
  PINNED_WEBHOOK_NETWORK,
  type TrustedProxies,
} from '@a2a-polyglot/http';
