/**
 * @a2a-polyglot/sse — the one reader of `text/event-stream` bodies for the client, the
 * bridges, A2A-Lite and the tests. A package of its own because none of its users depends on
 * another (the bridges and A2A-Lite do not depend on the client), and because it must stay
 * browser-safe (no `node:` imports) for the client.
 */
export { readSse, DEFAULT_MAX_EVENT_CHARS, type ReadSseOptions, type SseEvent } from './read-sse.js';
export { SseError, type SseFailure } from './sse-error.js';
export type { SseBody } from './chunk-source.js';
