import {
  Client,
  GRPC_BINDING,
  resolveAgentCard,
  WEBSOCKET_BINDING,
  webSocketTransportFactory,
  type TransportFactory,
  type WebSocketConstructor,
} from '@a2a-polyglot/client';
import type { AgentCard } from '@a2a-polyglot/model';
import type { CommonOptions } from './args.js';

/**
 * gRPC, loaded only when the card leads there: @grpc/grpc-js costs start-up time, and the
 * client keeps it behind its own entry point.
 */
const grpcFactory: TransportFactory = (init) => {
  const grpc = require('@a2a-polyglot/client/grpc') as typeof import('@a2a-polyglot/client/grpc');
  return grpc.grpcTransportFactory(init);
};

/**
 * WebSocket: the client's WebSocket transport with the global class where Node has one
 * (≥ 22), else the `ws` package, loaded only when this binding is chosen.
 */
function webSocketFactory(token: string | undefined): TransportFactory {
  return (init) => {
    const WebSocket = ((globalThis as { WebSocket?: unknown }).WebSocket ?? require('ws')) as WebSocketConstructor;
    return webSocketTransportFactory({ WebSocket, ...(token ? { token } : {}) })(init);
  };
}

/**
 * The header an API key goes in: the one the card's first header API key scheme names
 * (`securitySchemes.*.apiKeySecurityScheme` with `location: "header"`), else the client's
 * default (`X-API-Key`). Query and cookie keys are not supported by the client.
 */
export function apiKeyHeaderOf(card: AgentCard): string | undefined {
  for (const { scheme } of Object.values(card.securitySchemes)) {
    if (scheme?.$case === 'apiKeySecurityScheme' && scheme.value.location.toLowerCase() === 'header' && scheme.value.name) return scheme.value.name;
  }
  return undefined;
}

/** A client for the agent at `url`, configured from the common options. */
export async function connect(url: string, common: CommonOptions, signal: AbortSignal): Promise<Client> {
  const { card } = await resolveAgentCard(url, { headers: common.headers, timeoutMs: common.timeoutMs, signal });
  return new Client(card, {
    bindings: common.binding ? [common.binding] : undefined,
    transports: { [GRPC_BINDING]: grpcFactory, [WEBSOCKET_BINDING]: webSocketFactory(common.token) },
    headers: common.headers,
    bearerToken: common.token,
    ...(common.apiKey !== undefined && { apiKey: common.apiKey, apiKeyHeader: apiKeyHeaderOf(card) }),
    timeoutMs: common.timeoutMs,
    idleTimeoutMs: common.timeoutMs,
  });
}
