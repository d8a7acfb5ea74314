/**
 * @a2a-polyglot/client — one A2A client for every binding, for Node and browsers.
 *
 * `Client.connect(url)` resolves the agent card, picks an interface (JSON-RPC, HTTP+JSON, or
 * any registered transport such as gRPC from `@a2a-polyglot/client/grpc`), and exposes the
 * 11 operations as typed methods. A2A v0.3 servers are spoken to as well: the card decides. Streams resume by themselves after a cut. This entry
 * point uses only fetch and Web APIs: no Node modules, so it bundles for browsers.
 */
export * from './transport.js';
export * from './bindings.js';
export * from './failures.js';
export { A2A_VERSION, VERSION_HEADER } from './http.js';
export { decodeSendMessageResult, decodeStreamEvent } from './decode.js';
export * from './card.js';
export { CardVerifier, type CardVerification, type JwksFetch } from './card-verification.js';
export { CardSignatureError, type CardSignatureFailure } from '@a2a-polyglot/card-signing';
export * from './select-interface.js';
export * from './interceptors.js';
export * from './auth.js';
export * from './retry.js';
export * from './task-stream.js';
export * from './client.js';
export * from './messages.js';
export { JsonRpcTransport, jsonRpcTransportFactory } from './transports/jsonrpc.js';
export { V1_JSONRPC, type JsonRpcDialect } from './transports/jsonrpc-dialect.js';
export { V03_JSONRPC } from './transports/jsonrpc-v03.js';
export { cardJsonOfAnyVersion, isV03Card } from './card-v03.js';
export { agentCardProblems, type CardProblem, cardContentProblems, cardFieldProblems, cardJsonProblems, interfaceProblem } from './card-problems.js';
export { RestTransport, restTransportFactory, restRequest, type RestRequest } from './transports/rest.js';
export { V1_REST, type RestDialect, type RestOperation, type Verb } from './transports/rest-dialect.js';
export { V03_REST } from './transports/rest-v03.js';
export {
  WebSocketTransport,
  webSocketTransportFactory,
  WEBSOCKET_SUBPROTOCOL,
  type WebSocketConstructor,
  type WebSocketLike,
  type WebSocketTransportOptions,
} from './transports/websocket.js';
