import { type AgentExecutor, RequestHandler } from '@a2a-polyglot/core';
import { testAgentCard } from '@a2a-polyglot/testing';

/** A card with streaming on, push notifications and the extended card off. */
const card = testAgentCard({ capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false, extensions: [] } });

/** Echoes the message text back as one artifact and completes. */
const echo: AgentExecutor = {
  async execute(ctx) {
    ctx.artifact({ text: ctx.text, lastChunk: true });
    ctx.complete();
  },
};

/** The handler the dispatcher tests call: the echo agent behind the card above, silent. */
export function echoHandler(): RequestHandler {
  return new RequestHandler({ card, executor: echo });
}
