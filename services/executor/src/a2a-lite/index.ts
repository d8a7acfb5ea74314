/**
 * A2A-Lite on an executor agent (`agents[i].a2aLite`): incoming `[A2A:…]` tags become task
 * operations ({@link liteRouting}, interceptors of the agent's handler), the agent's words to Lite peers are tagged
 * ({@link liteTaggingAgent}), and peers' cards are kept in the known-agents cache
 * ({@link KnownLiteAgents}).
 */
import { RequestHandler, type RequestHandlerOptions } from '@a2a-polyglot/core';
import type { A2ALiteConfig } from '../config.js';
import { KnownLiteAgents, type KnownAgentsLimits } from './known-agents.js';
import { liteRouting } from './lite-routing.js';
import { LiteTaskIndex } from './lite-task-index.js';
import { liteTaggingAgent } from './lite-tagging-agent.js';

export { KNOWN_AGENTS_LIMITS, KnownLiteAgents, type KnownAgentsLimits, type KnownLiteAgent } from './known-agents.js';
export { liteRouting, type LiteHandlerOptions } from './lite-routing.js';
export { LITE_INDEX_MAX_IDS, LITE_INDEX_MAX_IDS_PER_PRINCIPAL, LiteTaskIndex } from './lite-task-index.js';
export { liteOrigin, liteTaggingAgent, type LiteOrigin } from './lite-tagging-agent.js';

/**
 * The request handler of one agent: a plain {@link RequestHandler}, or with `lite` set, one
 * that routes A2A-Lite tags ({@link liteRouting}, ahead of any interceptors in `options`) over
 * the agent wrapped by {@link liteTaggingAgent}. (The caller keeps closing the agent it made:
 * the wrapper has no resources of its own.)
 */
export function agentRequestHandler(options: RequestHandlerOptions, agentId: string, lite: A2ALiteConfig | undefined): RequestHandler {
  if (!lite) return new RequestHandler(options);
  const index = new LiteTaskIndex();
  const knownAgents = new KnownLiteAgents(lite.knownAgentsDir, knownAgentsLimits(lite));
  return new RequestHandler({
    ...options,
    executor: liteTaggingAgent(options.executor, index),
    interceptors: [...liteRouting(options.card, { agentId, index, knownAgents }), ...(options.interceptors ?? [])],
  });
}

/** The cache bounds an agent's `a2aLite` section sets (the rest keep their defaults). */
function knownAgentsLimits(lite: A2ALiteConfig): Partial<KnownAgentsLimits> {
  return {
    ...(lite.maxCardBytes !== undefined && { maxCardBytes: lite.maxCardBytes }),
    ...(lite.maxKnownAgents !== undefined && { maxEntries: lite.maxKnownAgents }),
    ...(lite.maxKnownAgentsBytes !== undefined && { maxBytes: lite.maxKnownAgentsBytes }),
    ...(lite.maxKnownAgentsPerPrincipal !== undefined && { maxEntriesPerPrincipal: lite.maxKnownAgentsPerPrincipal }),
  };
}
