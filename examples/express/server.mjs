/**
 * An Express 5 app that serves an A2A agent under `/agent` beside a route of its own:
 *
 *   node examples/express/server.mjs          # PORT=3000 by default; PORT=0 picks a free port
 *
 * The first stdout line is the app's base URL. The agent's card is at
 * `<base>/agent/.well-known/agent-card.json` and lists `<base>/agent/a2a/rpc` (JSON-RPC) and
 * `<base>/agent/a2a` (REST); `<base>/hello` is the app's own route.
 */
import { RequestHandler } from '@a2a-polyglot/core';
import { AgentCard } from '@a2a-polyglot/model';
import { createA2ARequestListener } from '@a2a-polyglot/server';
import express from 'express';

const handler = new RequestHandler({
  card: AgentCard.fromPartial({
    name: 'Express echo',
    description: 'Says your message back, served from inside an Express app.',
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

const app = express();
// The app's own body parser may come first: the listener reads the body it parsed.
app.use(express.json());
// Paths the agent does not serve fall through to the routes below.
app.use('/agent', createA2ARequestListener({ handler }));
app.get('/hello', (_req, res) => {
  res.json({ hello: 'from the Express app' });
});

const server = app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1', () => {
  const { address, port } = server.address();
  const host = address.includes(':') ? `[${address}]` : address;
  console.log(`http://${host}:${port}`);
  console.log(`agent card: http://${host}:${port}/agent/.well-known/agent-card.json`);
});

async function stop() {
  await handler.shutdown(1000);
  server.closeAllConnections();
  server.close(() => process.exit(0));
}
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
