/**
 * `@a2a-polyglot/core/agent` — for agent authors and the hosts that serve an agent: the
 * executor contract, the helpers that build messages and parts, the request handler and its
 * options (authentication, rate limits, push delivery, interceptors), and the error type an
 * agent throws. Everything an `agent.ts` or a hosting script imports from core is here.
 */
export type { AgentExecutor, ArtifactChunk, ExecutionContext, StatusMessage } from './agent-executor.js';
export { defineAgent, type AgentCardFields, type AgentDefinition, type AgentSkillFields } from './define-agent.js';
export { agentMessage, dataPart, eventState, messageText, textPart } from './task-events.js';
export { isInterrupted, isTerminal } from './task-state.js';
export { A2AError, errors, type A2AErrorOptions, type FieldViolation } from './a2a-error.js';
export { A2AErrorCode } from './error-code.js';
export { RequestHandler } from './request-handler.js';
export { MAX_PAGE_SIZE, type ClusterOptions, type RequestHandlerOptions } from './request-handler-options.js';
export { DEFAULT_QUEUE_CONCURRENCY, DEFAULT_QUEUE_POLL_MS, RESUMED_TASK_MESSAGE, type QueueOptions } from './run-queue.js';
export { ABANDONED_TASK_MESSAGE } from './cluster-coordinator.js';
export { ApiKeyAuthenticator, ClientCertificateAuthenticator, type ApiKeyAuthenticatorOptions, type Authenticator, type Principal } from './auth.js';
export { principalId } from './principal-id.js';
export { withPrincipalAliases } from './principal-aliases.js';
export { rateLimited, type RateLimiter, type RateLimitScope } from './rate-limit.js';
export { interceptOperation, type OperationCall, type OperationInterceptor, type OperationNext } from './operation-interceptor.js';
export { HttpPushSender, type HttpPushSenderOptions, type PushSender } from './push/push-sender.js';
export type { WebhookEncoding, WebhookEncodings } from './push/webhook-encoding.js';
export type { ResolvedAddress, WebhookResolver, WebhookTarget } from './push/webhook-target.js';
export type { WebhookNetwork, WebhookPost, WebhookTransport } from './push/webhook-transport.js';
export { FETCH_WEBHOOK_NETWORK, fetchWebhookTransport } from './push/fetch-webhook-transport.js';
