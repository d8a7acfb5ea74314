import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import type { AgentCard, AgentInterface } from '@a2a-polyglot/model';
import { BINDING_IDS, BINDING_KEYS, type BindingKey } from './bindings.js';
import type { ClientOptions } from './client-options.js';
import { selectInterface } from './select-interface.js';
import type { Transport, TransportFactory } from './transport.js';
import { jsonRpcTransportFactory } from './transports/jsonrpc.js';
import { restTransportFactory } from './transports/rest.js';
import { webSocketTransportFactory } from './transports/websocket.js';

/**
 * The transports every client has: JSON-RPC and REST, plus WebSocket where the runtime has a
 * global `WebSocket` (browsers, Node ≥ 22). gRPC is opt-in (`@a2a-polyglot/client/grpc`).
 */
function builtInTransports(): Record<string, TransportFactory> {
  const factories: Record<string, TransportFactory> = {
    [BINDING_IDS.jsonrpc]: jsonRpcTransportFactory,
    [BINDING_IDS.rest]: restTransportFactory,
  };
  if (typeof (globalThis as { WebSocket?: unknown }).WebSocket === 'function') factories[BINDING_IDS.websocket] = webSocketTransportFactory();
  return factories;
}

/** The card entry a client uses, its binding, and the transport that speaks it. */
export interface SelectedTransport {
  readonly agentInterface: AgentInterface;
  readonly binding: BindingKey;
  readonly transport: Transport;
}

/**
 * Picks the card's interface among the bindings the options allow and that have a transport
 * factory (built-in ones merged with `options.transports`), and opens its transport.
 * @throws A2AError InvalidParams when `options.bindings` names a binding with no factory.
 */
export function openTransport(card: AgentCard, options: ClientOptions): SelectedTransport {
  const factories = { ...builtInTransports(), ...options.transports };
  const usable = BINDING_KEYS.filter((key) => factories[BINDING_IDS[key]] !== undefined);
  const allowed = options.bindings ? options.bindings.filter((key) => usable.includes(key)) : usable;
  if (options.bindings && allowed.length < options.bindings.length) {
    const missing = options.bindings.filter((key) => !usable.includes(key));
    throw new A2AError(
      A2AErrorCode.InvalidParams,
      `No transport for ${missing.join(', ')}: register one in options.transports${missing.includes('grpc') ? " (gRPC: grpcTransportFactory from '@a2a-polyglot/client/grpc')" : ''}`,
    );
  }
  const { agentInterface, binding } = selectInterface(card, allowed);
  const factory = factories[BINDING_IDS[binding]];
  // selectInterface only returns allowed bindings, and every allowed one has a factory.
  if (!factory) throw new A2AError(A2AErrorCode.InvalidParams, `No transport for ${binding}: register one in options.transports`);
  return { agentInterface, binding, transport: factory({ agentInterface, fetch: options.fetch }) };
}
