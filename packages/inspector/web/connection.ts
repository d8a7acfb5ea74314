/**
 * Reaching an agent with our own client library: the card, the bindings the page can use
 * from it, and one {@link Client} per chosen binding. WebSocket first when the card offers it;
 * JSON-RPC (+ SSE) and REST (+ SSE) as alternatives; gRPC never (browsers cannot speak it).
 * Every request, response and frame goes through the raw pane's taps (wire.ts).
 */
import { bindingKeyOf, Client, resolveAgentCard, WEBSOCKET_BINDING, webSocketTransportFactory, type BindingKey, type ResolvedCard } from '@a2a-polyglot/client';
import type { AgentCard } from '@a2a-polyglot/model';
import { type PageAuth, secretHeaderNames } from './auth.js';
import { type RawSink, tappedFetch, tappedWebSocket } from './wire.js';

/** Browser bindings in the page's preference order. */
const PAGE_BINDINGS: readonly BindingKey[] = ['websocket', 'jsonrpc', 'rest'];

/** Human names of the bindings. */
export const BINDING_LABELS: Readonly<Record<BindingKey, string>> = {
  websocket: 'WebSocket',
  jsonrpc: 'JSON-RPC + SSE',
  rest: 'REST (HTTP+JSON) + SSE',
  grpc: 'gRPC',
};

/** Fetches and validates the card the way every client of ours does (the GET shows in the raw pane). */
export function fetchCard(url: string, sink: RawSink): Promise<ResolvedCard> {
  return resolveAgentCard(url, { timeoutMs: 10_000, fetch: tappedFetch(sink, () => []) });
}

/** The bindings of the card this page can use, in {@link PAGE_BINDINGS} order. */
export function pageBindings(card: AgentCard): BindingKey[] {
  const offered = new Set(card.supportedInterfaces.map((i) => bindingKeyOf(i.protocolBinding)));
  return PAGE_BINDINGS.filter((key) => offered.has(key));
}

/**
 * A client on one binding. The token goes as `Authorization: Bearer` or in the header the user
 * named, with the other headers, on HTTP; on a WebSocket only the token can go, in the auth
 * subprotocol (browsers cannot set headers on a WebSocket; the server reads it as a bearer
 * credential). Streams resume by themselves after a cut; the task view shows each resume.
 */
export function clientFor(card: AgentCard, binding: BindingKey, auth: PageAuth, sink: RawSink): Client {
  const token = auth.token || undefined;
  return new Client(card, {
    bindings: [binding],
    bearerToken: auth.kind === 'bearer' ? token : undefined,
    apiKey: auth.kind === 'header' ? token : undefined,
    apiKeyHeader: auth.kind === 'header' ? auth.headerName : undefined,
    headers: auth.headers,
    fetch: tappedFetch(sink, () => secretHeaderNames(auth)),
    transports: { [WEBSOCKET_BINDING]: webSocketTransportFactory({ token, WebSocket: tappedWebSocket(sink) }) },
    timeoutMs: 30_000,
    resume: { attempts: 6, initialDelayMs: 100, maxDelayMs: 2000 },
  });
}
