import type { AgentCard, AgentInterface } from '@a2a-polyglot/model';
import { cardInterfaces } from '@a2a-polyglot/server';
import type { ExecutorConfig } from './config.js';

/**
 * The extended card of the agent mounted at `mountPath` ('' for the root agent): the public
 * card, with its interfaces under that prefix filled in when the public URL is known. The
 * server adds interfaces per request only at the discovery paths; the GetExtendedAgentCard
 * call has no request URL, so without `publicBaseUrl` the list stays empty. `extra` gives the
 * interfaces the HTTP listener does not know of (gRPC, WebSocket) for the agent's public base.
 */
export function extendedCardAt(card: AgentCard, config: ExecutorConfig, mountPath: string, extra: (agentBase: string) => AgentInterface[]): AgentCard {
  if (!config.publicBaseUrl) return card;
  const base = `${config.publicBaseUrl}${mountPath}`;
  return { ...card, supportedInterfaces: cardInterfaces(card, base, config.basePath, extra(base), { experimental11: config.protocol.experimental11 }) };
}
