/**
 * @a2a-polyglot/conformance — the binding-neutral A2A conformance suite. Scenarios are data
 * (scenarios/*.json), the agent is scripted by the request itself, each binding has one
 * small driver, and one comparator checks normalized outcomes against the scenario and
 * across bindings. A new binding (gRPC, WebSocket, ...) adds a driver only.
 */
export * from './script.js';
export * from './gates.js';
export * from './scripted-executor.js';
export * from './scenario.js';
export * from './fault.js';
export * from './scenario-loader.js';
export * from './driver.js';
export * from './sse.js';
export * from './normalize.js';
export * from './summarize.js';
export * from './compare.js';
export * from './card.js';
export * from './placeholders.js';
export * from './webhook-receiver.js';
export * from './runner.js';
export * from './drivers/in-process.js';
export * from './drivers/jsonrpc.js';
export * from './drivers/jsonrpc-v03.js';
export * from './drivers/rest.js';
export { RestV03Driver } from './drivers/rest-v03.js';
export { WebSocketDriver } from './drivers/websocket.js';
export { GrpcDriver } from './drivers/grpc.js';
export { GrpcSessionDriver, type SessionAddressing } from './drivers/grpc-session.js';
export { V03_GRPC_WIRE, V1_GRPC_WIRE, type GrpcWire } from './drivers/grpc-wire.js';
export { startServerUnderTest, WIRE_VIOLATION, type HttpServerUnderTest } from './drivers/http-common.js';
export * from './bindings.js';
