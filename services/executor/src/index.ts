/**
 * @a2a-polyglot/executor — the runnable A2A service: configuration from file, environment
 * and flags; the built-in demo agent, your own agent module, or several agents each routed to
 * a handler (framework bridge); one HTTP listener serving each agent's card, JSON-RPC and
 * HTTP+JSON, and a gRPC listener (standard and session services) for the root agent. `main.ts`
 * is the process entry; `startExecutor` runs the same wiring in-process (tests, embedding).
 */
export * from './config.js';
export * from './card.js';
export * from './demo-agent.js';
export * from './load-agent.js';
export * from './start-executor.js';
export * from './agents.js';
export * from './builtin-handlers.js';
export * from './telemetry.js';
export * from './logger.js';
