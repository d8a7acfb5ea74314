/**
 * @a2a-polyglot/bridges — existing agent frameworks behind A2A without changing a line of
 * them. A bridge is an AgentExecutor factory plus a settings schema (`Bridge`); the registry
 * maps handler names to bridges; every bridge follows one streaming contract (`TurnWriter`):
 * chunks on artifact `text-delta`, `lastChunk` on the last, a fallback text when there is
 * none, a clear failure that keeps what was sent, and cancellation passed upstream.
 */
export * from './bridge.js';
export * from './bridge-error.js';
export * from './settings.js';
export * from './common-settings.js';
export * from './registry.js';
export * from './streaming-contract.js';
export * from './sse-reader.js';
export * from './upstream-http.js';
export * from './deadline.js';
export * from './conversation.js';
export * from './redact.js';
export * from './openai-chat.js';
export * from './openclaw-responses.js';
export * from './hermes-runs.js';
export * from './hermes-events.js';
