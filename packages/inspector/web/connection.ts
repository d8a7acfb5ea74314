/**
 * Reaching an agent with our own client library: the card, the bindings the page can use
 * from it, and one {@link Client} per chosen binding. WebSocket first when the card offers it;
 * JSON-RPC (+ SSE) and REST (+ SSE) as alternatives; gRPC never (browsers cannot speak it).
 */
import { bindingKeyOf, Client, resolveAgentCard, WEBSOCKET_BINDING, webSocketTransportFactory, type BindingKey, type ResolvedCard } from '@a2a-polyglot/client';
import type { AgentCard } from '@a2a-polyglot/model';

/** Browser bindings in the page's preference order. */
const PAGE_BINDINGS: readonly BindingKey[] = ['websocket', 'jsonrpc', 'rest'];

/** Human names of the bindings. */
export const BINDING_LABELS: Readonly<Record<BindingKey, string>> = {
  websocket: 'WebSocket',
  jsonrpc: 'JSON-RPC + SSE',
  rest: 'REST (HTTP+JSON) + SSE',
  grpc: 'gRPC',
};

/** Fetches and validates the card the way every client of ours does. */
export function fetchCard(url: string): Promise<ResolvedCard> {
  return resolveAgentCard(url, { timeoutMs: 10_000 });
}

/** The bindings of the card this page can use, in {@link PAGE_BINDINGS} order. */
export function pageBindings(card: AgentCard): BindingKey[] {
  const offered = new Set(card.supportedInterfaces.map((i) => bindingKeyOf(i.protocolBinding)));
  return PAGE_BINDINGS.filter((key) => offered.has(key));
}

/**
 * A client on one binding. A token goes as `Authorization: Bearer` on HTTP and in the
 * WebSocket's auth subprotocol (browsers cannot set headers on a WebSocket). Streams resume
 * by themselves after a cut; the task view shows each resume.
 */
export function clientFor(card: AgentCard, binding: BindingKey, token: string): Client {
  return new Client(card, {
    bindings: [binding],
    bearerToken: token || undefined,
    transports: token ? { [WEBSOCKET_BINDING]: webSocketTransportFactory({ token }) } : undefined,
    timeoutMs: 30_000,
    resume: { attempts: 6, initialDelayMs: 100, maxDelayMs: 2000 },
  });
}
