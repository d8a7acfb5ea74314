/**
 * A Cloudflare Worker serving an A2A agent through the fetch-standard handler
 * `createA2AFetchHandler` (agent card, JSON-RPC, REST and SSE), with the in-memory task store
 * and push notifications over `fetch` (the URL policy holds, no DNS pinning: see README.md).
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

/** @param {Record<string, string | undefined>} env */
function agentFor(env) {
  if (agent) return agent;
  const handler = new RequestHandler({
    card: AgentCard.fromPartial({
      name: 'Workers echo',
      description: 'Says your message back, served from a Cloudflare Worker.',
      version: '1.0.0',
      capabilities: { streaming: true, pushNotifications: true },
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
    // Webhooks on loopback and private addresses: local tests only (a `[vars]` entry or a
    // Miniflare binding); never on a deployed worker that untrusted callers reach.
    allowPrivateWebhooks: env.A2A_ALLOW_PRIVATE_WEBHOOKS === '1',
  });
  agent = { handler, serve: createA2AFetchHandler({ handler }) };
  return agent;
}

/**
 * Keeps the request's work alive until the webhook deliveries queued by it have ended: a
 * Worker's pending work is cut off when its response is done, and deliveries run after the
 * events that cause them. A stream's last events are delivered after its body ends, so the
 * wait starts then.
 */
function untilDelivered(response, handler, ctx) {
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
    ctx.waitUntil(handler.pushIdle());
    return response;
  }
  const body = response.body.pipeThrough(new TransformStream({ flush: () => ctx.waitUntil(handler.pushIdle()) }));
  return new Response(body, response);
}

export default {
  /**
   * @param {Request} request
   * @param {Record<string, string | undefined>} env
   * @param {{ waitUntil(promise: Promise<unknown>): void }} ctx
   */
  async fetch(request, env, ctx) {
    const { handler, serve } = agentFor(env);
    return untilDelivered(await serve(request), handler, ctx);
  },
};
