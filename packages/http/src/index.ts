/**
 * @a2a-polyglot/http — HTTP plumbing shared by the A2A HTTP bindings (JSON-RPC and
 * HTTP+JSON): the runtime-free request/result seam (`HttpExchangeRequest`, `HttpExchangeResult`)
 * with its node:http and fetch adapters, bounded JSON bodies, SSE with backpressure and
 * heartbeats, call contexts from requests, and small response helpers; and the Node side of
 * webhook delivery (`PINNED_WEBHOOK_NETWORK`: node:http with DNS pinning). No A2A semantics live here.
 */
export * from './read-body.js';
export * from './sse-frame.js';
export * from './sse-delivery.js';
export * from './node-sse-sink.js';
export * from './call-context.js';
export * from './client-address.js';
export * from './forwarded-origin.js';
export * from './abort-signal.js';
export * from './send-json.js';
export * from './preset-headers.js';
export * from './headers.js';
export * from './request-path.js';
export * from './response-media-type.js';
export * from './error-headers.js';
export * from './exchange.js';
export * from './node-exchange.js';
export * from './fetch-exchange.js';
export * from './webhook-node-transport.js';
