import type { ExecutorConfig } from './config.js';

/**
 * Whether this instance opens its listeners (HTTP with JSON-RPC, REST, WebSocket, health and
 * metrics; gRPC). A `role: "worker"` instance opens none: it only claims and runs queued runs,
 * so nothing reaches it but the shared stores, and it has no port to expose or protect. Every
 * other role (`all`, `frontend`) listens. The one place this rule lives: the listener stack and
 * the startup line both ask here.
 */
export function opensListeners(config: Pick<ExecutorConfig, 'role'>): boolean {
  return config.role !== 'worker';
}
