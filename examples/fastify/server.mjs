/**
 * A Fastify 5 app that serves an A2A agent under `/agent` beside a route of its own:
 *
 *   node examples/fastify/server.mjs          # PORT=3000 by default; PORT=0 picks a free port
 *
 * The first stdout line is the app's base URL. The agent's card is at
 * `<base>/agent/.well-known/agent-card.json` and lists `<base>/agent/a2a/rpc` (JSON-RPC) and
 * `<base>/agent/a2a` (REST); `<base>/hello` is the app's own route.
 */
import { RequestHandler } from '@a2a-polyglot/core';
import { AgentCard } from '@a2a-polyglot/model';
import { a2aFastifyPlugin } from '@a2a-polyglot/server';
import Fastify from 'fastify';

const handler = new RequestHandler({
  card: AgentCard.fromPartial({
    name: 'Fastify echo',
    description: 'Says your message back, served from inside a Fastify app.',
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

const app = Fastify();
// The register prefix is the agent's mount path: its card URLs include it.
await app.register(a2aFastifyPlugin, { prefix: '/agent', handler });
app.get('/hello', async () => ({ hello: 'from the Fastify app' }));

const base = await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
console.log(base);
console.log(`agent card: ${base}/agent/.well-known/agent-card.json`);

async function stop() {
  await handler.shutdown(1000);
  app.server.closeAllConnections();
  await app.close();
  process.exit(0);
}
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
