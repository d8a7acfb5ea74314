/**
 * A Hono app (on @hono/node-server) that serves an A2A agent under `/agent` beside a route of
 * its own, through the fetch-standard handler `createA2AFetchHandler`:
 *
 *   node examples/hono/server.mjs          # PORT=3000 by default; PORT=0 picks a free port
 *
 * The first stdout line is the app's base URL. The agent's card is at
 * `<base>/agent/.well-known/agent-card.json` and lists `<base>/agent/a2a/rpc` (JSON-RPC) and
 * `<base>/agent/a2a` (REST); `<base>/hello` is the app's own route.
 */
import { RequestHandler } from '@a2a-polyglot/core';
import { AgentCard } from '@a2a-polyglot/model';
import { createA2AFetchHandler } from '@a2a-polyglot/server';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const handler = new RequestHandler({
  card: AgentCard.fromPartial({
    name: 'Hono echo',
    description: 'Says your message back, served from inside a Hono app.',
    version: '1.0.0',
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Repeats the message.', tags: ['example'], examples: ['hello'] }],
  }),
  executor: {
    // Says the message back word by word, 20 ms apart: a streaming client sees the chunks
    // arrive, and a cancel stops it midway (ctx.signal aborts; the task ends CANCELED).
    async execute(ctx) {
      const words = ctx.text.split(/\s+/).filter(Boolean);
      ctx.working();
      for (const [i, word] of words.entries()) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 20));
        if (ctx.signal.aborted) return;
        ctx.artifact({
          artifactId: 'answer',
          name: 'answer',
          text: i === 0 ? `You said: ${word}` : ` ${word}`,
          append: i > 0,
          lastChunk: i === words.length - 1,
        });
      }
      ctx.complete();
    },
  },
});

const shutdown = new AbortController();
// `mountPath` is where the app routes the agent: requests keep it in their URL, and the card's URLs include it.
const agent = createA2AFetchHandler({ handler, mountPath: '/agent', shutdownSignal: shutdown.signal });

const app = new Hono();
app.all('/agent/*', (c) => agent(c.req.raw));
app.get('/hello', (c) => c.json({ hello: 'from the Hono app' }));

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: process.env.HOST ?? '127.0.0.1' }, (info) => {
  const host = info.address.includes(':') ? `[${info.address}]` : info.address;
  console.log(`http://${host}:${info.port}`);
  console.log(`agent card: http://${host}:${info.port}/agent/.well-known/agent-card.json`);
});

async function stop() {
  shutdown.abort();
  await handler.shutdown(1000);
  server.closeAllConnections?.();
  server.close(() => process.exit(0));
}
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
