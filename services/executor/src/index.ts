/**
 * @a2a-polyglot/executor — the runnable A2A service: configuration from file, environment
 * and flags; the built-in demo agent or your own agent module; one HTTP listener serving the
 * agent card, JSON-RPC and HTTP+JSON, and a gRPC listener (standard and session services),
 * both on the same RequestHandler. `main.ts` is the process entry; `startExecutor` runs the
 * same wiring in-process (tests, embedding).
 */
export * from './config.js';
export * from './card.js';
export * from './demo-agent.js';
export * from './load-agent.js';
export * from './start-executor.js';
