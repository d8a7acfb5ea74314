/**
 * A2A-Lite on an executor agent (`agents[i].a2aLite`): incoming `[A2A:…]` tags become task
 * operations ({@link LiteRequestHandler}), the agent's words to Lite peers are tagged
 * ({@link liteTaggingAgent}), and peers' cards are kept in the known-agents cache
 * ({@link KnownLiteAgents}).
 */
import { RequestHandler, type RequestHandlerOptions } from '@a2a-polyglot/core';
import type { A2ALiteConfig } from '../config.js';
import { KnownLiteAgents } from './known-agents.js';
import { LiteRequestHandler } from './lite-request-handler.js';
import { LiteTaskIndex } from './lite-task-index.js';
import { liteTaggingAgent } from './lite-tagging-agent.js';

export { KnownLiteAgents, type KnownLiteAgent } from './known-agents.js';
export { LiteRequestHandler, type LiteHandlerOptions } from './lite-request-handler.js';
export { LiteTaskIndex } from './lite-task-index.js';
export { liteOrigin, liteTaggingAgent, type LiteOrigin } from './lite-tagging-agent.js';

/**
 * The request handler of one agent: a plain {@link RequestHandler}, or with `lite` set, a
 * {@link LiteRequestHandler} over the agent wrapped by {@link liteTaggingAgent}. (The caller
 * keeps closing the agent it made: the wrapper has no resources of its own.)
 */
export function agentRequestHandler(options: RequestHandlerOptions, agentId: string, lite: A2ALiteConfig | undefined): RequestHandler {
  if (!lite) return new RequestHandler(options);
  const index = new LiteTaskIndex();
  return new LiteRequestHandler(
    { ...options, executor: liteTaggingAgent(options.executor, index) },
    { agentId, index, knownAgents: new KnownLiteAgents(lite.knownAgentsDir) },
  );
}
