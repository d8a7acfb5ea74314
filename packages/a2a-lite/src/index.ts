/**
 * @a2a-polyglot/a2a-lite — A2A-Lite, the `[A2A:type key=value …]` chat-channel convention:
 * a codec for its seven message types (proper quoting and escaping), its `a2a-lite/1.0`
 * agent card, a mapping to and from the A2A task model, and `runLiteExchange`, which lets an
 * A2A-Lite agent delegate to any A2A agent over JSON-RPC with plain fetch. Untagged text
 * stays plain conversation.
 */
export * from './grammar.js';
export * from './codec.js';
export * from './args.js';
export * from './card.js';
export * from './a2a-json.js';
export * from './mapping.js';
export * from './jsonrpc.js';
export * from './exchange.js';
