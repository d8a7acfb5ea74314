/**
 * A Cloudflare Worker serving an A2A agent through the fetch-standard handler
 * `createA2AFetchHandler` (agent card, JSON-RPC, REST and SSE), with the in-memory task store.
 *
 *   npx wrangler dev                      # from this folder (wrangler.toml bundles this file)
 *   node examples/cloudflare-worker/run-local.mjs   # or: bundle with esbuild and run it in workerd via Miniflare
 *
 * The card is at `<origin>/.well-known/agent-card.json` and lists `<origin>/a2a/rpc` (JSON-RPC)
 * and `<origin>/a2a` (REST), built from the request's origin.
 *
 * Module state lives per isolate: the handler (and its in-memory tasks) is created once per
 * isolate on first use, and tasks are not shared between isolates (see README.md).
 */
import { RequestHandler } from '@a2a-polyglot/core';
import { AgentCard } from '@a2a-polyglot/model';
import { createA2AFetchHandler } from '@a2a-polyglot/server';

let agent;

function agentFor() {
  if (agent) return agent;
  const handler = new RequestHandler({
    card: AgentCard.fromPartial({
      name: 'Workers echo',
      description: 'Says your message back, served from a Cloudflare Worker.',
      version: '1.0.0',
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'echo', name: 'Echo', description: 'Repeats the message.', tags: ['example'], examples: ['hello'] }],
    }),
    executor: {
      async execute(ctx) {
        ctx.artifact({ name: 'answer', text: `You said: ${ctx.text}`, lastChunk: true });
        ctx.complete();
      },
    },
  });
  agent = createA2AFetchHandler({ handler });
  return agent;
}

export default {
  /** @param {Request} request */
  fetch(request, _env, _ctx) {
    return agentFor()(request);
  },
};
