/**
 * Binding identifiers, as `AgentInterface.protocolBinding` spells them (spec §2), and the
 * short names users type (`--binding rest`). Defined here once for the whole client.
 */

/** JSON-RPC 2.0 over HTTP (+ SSE for streams). */
export const JSONRPC_BINDING = 'JSONRPC';
/** HTTP+JSON, a.k.a. REST (+ SSE for streams). */
export const REST_BINDING = 'HTTP+JSON';
/** gRPC (`lf.a2a.v1.A2AService`); Node only, see `@a2a-polyglot/client/grpc`. */
export const GRPC_BINDING = 'GRPC';
/**
 * Our WebSocket binding. A2A has no standard WebSocket binding, so it is a custom binding,
 * which the spec (§12) identifies by URI. The client defines the identifier here, in one
 * place; the server side must advertise exactly this string in its card.
 */
export const WEBSOCKET_BINDING = 'urn:a2a-polyglot:binding:websocket:v1';

/** The short binding names of the client API and the CLI. */
export type BindingKey = 'jsonrpc' | 'rest' | 'grpc' | 'websocket';

/** Short name → card identifier. */
export const BINDING_IDS: Readonly<Record<BindingKey, string>> = {
  jsonrpc: JSONRPC_BINDING,
  rest: REST_BINDING,
  grpc: GRPC_BINDING,
  websocket: WEBSOCKET_BINDING,
};

/** All short names, in the client's default preference (only used to break no ties: the card's order wins). */
export const BINDING_KEYS: readonly BindingKey[] = ['jsonrpc', 'rest', 'grpc', 'websocket'];

/**
 * The short name of a card identifier, or undefined for bindings this client does not know.
 * Spec identifiers compare case-insensitively (peers write `jsonrpc`, `http+json`); URIs exactly.
 */
export function bindingKeyOf(protocolBinding: string): BindingKey | undefined {
  const upper = protocolBinding.trim().toUpperCase();
  if (upper === JSONRPC_BINDING || upper === 'JSON-RPC') return 'jsonrpc';
  if (upper === REST_BINDING || upper === 'REST' || upper === 'HTTP_JSON') return 'rest';
  if (upper === GRPC_BINDING) return 'grpc';
  if (protocolBinding.trim() === WEBSOCKET_BINDING) return 'websocket';
  return undefined;
}

/** Parses a user-typed binding name (`jsonrpc`, `rest`, `http+json`, `grpc`, `websocket`, `ws`). */
export function parseBindingKey(name: string): BindingKey | undefined {
  const lower = name.trim().toLowerCase();
  if (lower === 'ws') return 'websocket';
  if ((BINDING_KEYS as readonly string[]).includes(lower)) return lower as BindingKey;
  return bindingKeyOf(name);
}
