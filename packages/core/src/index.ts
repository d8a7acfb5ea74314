/**
 * @a2a-polyglot/core — the A2A semantics, once: errors and their wire tables, the task state
 * machine, task store, numbered event log, push delivery, and the request handler that
 * every binding calls. Nothing in here opens a socket.
 */
export * from './a2a-error.js';
export * from './error-code.js';
export * from './error-table.js';
export * from './error-wire.js';
export * from './grpc-metadata.js';
export * from './server-fault.js';
export * from './resume-cursor.js';
export * from './task-state.js';
export * from './task-store.js';
export * from './task-signals.js';
export * from './in-memory-task-store.js';
export * from './idempotency-store.js';
export * from './in-memory-idempotency-store.js';
export { sendBodyHash } from './send-body.js';
export { DEFAULT_IDEMPOTENCY_WINDOW_MS, PENDING_MS as IDEMPOTENCY_PENDING_MS } from './idempotent-sends.js';
export * from './event-log.js';
export * from './in-memory-event-log.js';
export * from './event-stream.js';
export * from './delivery-pace.js';
export * from './agent-executor.js';
export * from './define-agent.js';
export * from './auth.js';
export * from './principal-id.js';
export * from './principal-aliases.js';
export * from './distinguished-name.js';
export * from './rate-limit.js';
export * from './call-context.js';
export * from './call-logger.js';
export * from './request-ids.js';
export * from './logger.js';
export * from './lazy-logger.js';
export * from './request-handler.js';
export * from './protocol-version.js';
export { textPart, dataPart, messageText, agentMessage, taskView, eventState } from './task-events.js';
export * from './push/push-config-store.js';
export * from './push/push-sender.js';
export * from './push/webhook-encoding.js';
export { REDACTED_SECRET, redactPushConfig } from './push/push-config-redaction.js';
export { checkWebhookUrl, type CheckedWebhookUrl } from './push/webhook-url.js';
export { addressRefusal, isIpAddress, isLoopbackAddress } from './push/address-policy.js';
export { pinWebhookTarget, WebhookRefused, type ResolvedAddress, type WebhookResolver, type WebhookTarget } from './push/webhook-target.js';
export { pinnedHttpTransport, systemResolver, type WebhookPost, type WebhookTransport } from './push/webhook-http-client.js';
export * from './operations.js';
export type { ServedHandler } from './served-handler.js';
export * from './readiness.js';
export * from './observer.js';
export * from './combine-observers.js';
export * from './wrapped-task-store.js';
