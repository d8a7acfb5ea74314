import type { Logger, ReadinessReport } from '@a2a-polyglot/core';
import { inspectorRoute } from '@a2a-polyglot/inspector';
import type { A2AMetrics } from '@a2a-polyglot/metrics';
import type { AgentInterface } from '@a2a-polyglot/model';
import type { A2AHttpOptions, StartA2AServerOptions } from '@a2a-polyglot/server';
import { cardSignerFor } from './card-signing.js';
import { inspectorEnabled, type ExecutorConfig } from './config.js';
import type { ListenerTls } from './listener-security.js';

/** Listener options every agent of this service shares (the card signer too: one key, one cache). */
export function listenerOptions(config: ExecutorConfig, logger: Logger): Omit<A2AHttpOptions, 'handler'> {
  const signer = cardSignerFor(config);
  return {
    basePath: config.basePath,
    publicBaseUrl: config.publicBaseUrl,
    trustProxy: config.trustProxy,
    maxBodyBytes: config.maxBodyBytes,
    sseHeartbeatMs: config.sseHeartbeatMs,
    sseStallTimeoutMs: config.streamStallTimeoutMs,
    cardCompat: config.cardCompat,
    cors: { origins: config.cors.origins },
    allowedHosts: config.allowedHosts,
    signCard: signer && ((card) => signer.sign(card)),
    logger,
  };
}

/** The WebSocket binding of an agent's listener (the root's and every mounted agent's). */
export function bindingOptions(config: ExecutorConfig): Pick<A2AHttpOptions, 'websocket'> {
  const { maxMessagesPerSecond, messageBurst } = config.websocket;
  return { websocket: { listInCard: config.websocketInCard, stallTimeoutMs: config.streamStallTimeoutMs, maxMessagesPerSecond, messageBurst } };
}

/** The service-wide pieces the root listener serves besides the root agent. */
export interface RootListenerServices {
  readonly readiness: () => Promise<ReadinessReport>;
  readonly metrics: A2AMetrics;
  readonly grpcInterfaces: (publicBase: string) => AgentInterface[];
  readonly tls: ListenerTls | undefined;
}

/** Where operators list the served agents (ids, names, card URLs), with one agent or several. */
export const AGENT_INDEX_PATH = '/agents';

/**
 * What the root listener adds to the shared listener options: the service-wide probes and
 * metrics, the WebSocket binding, the gRPC interfaces in the card, the inspector page (when
 * enabled), the listings of the served agents (`/agents` and the RFC 9727 API catalog, in
 * both modes so a tool reads every executor alike), and where to listen.
 * Mounted agents get only {@link listenerOptions}.
 */
export function rootListenerOptions(config: ExecutorConfig, logger: Logger, service: RootListenerServices): Omit<StartA2AServerOptions, 'handler'> {
  return {
    ...listenerOptions(config, logger),
    trustedProxies: config.trustedProxies,
    forwardedHeader: config.forwardedHeader,
    readiness: service.readiness,
    metrics: () => service.metrics.scrape(),
    ...bindingOptions(config),
    extraInterfaces: service.grpcInterfaces,
    extraRoutes: inspectorEnabled(config) ? inspectorRoute() : undefined,
    agentIndexPath: AGENT_INDEX_PATH,
    apiCatalog: true,
    host: config.host,
    port: config.port,
    tls: service.tls?.https,
  };
}
