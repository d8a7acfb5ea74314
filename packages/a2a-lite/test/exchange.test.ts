import { RequestHandler, type AgentExecutor } from '@a2a-polyglot/core';
import type { AgentCard } from '@a2a-polyglot/model';
import { startA2AServer, type RunningA2AServer } from '@a2a-polyglot/server';
import { LiteError, parseLite, runLiteExchange } from '../src/index.js';

/** The A2A agent a Lite peer delegates to; the first word picks what it does. */
const agent: AgentExecutor = {
  async execute(ctx) {
    if (ctx.task) {
      ctx.working();
      ctx.artifact({ artifactId: 'answer', name: 'forecast', text: `Weather in ${ctx.text}: sunny`, lastChunk: true });
      return ctx.complete();
    }
    const word = ctx.text.split(/\s+/)[0];
    if (word === 'ask') return ctx.requireInput('Which city?');
    if (word === 'reply') return ctx.reply('a direct answer');
    if (word === 'boom') throw new Error('internal detail');
    if (word === 'slow') {
      ctx.working();
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      return;
    }
    ctx.working();
    const id = ctx.artifact({ artifactId: 'text', text: 'Hel' });
    ctx.artifact({ artifactId: id, text: 'lo', append: true, lastChunk: true });
    ctx.complete();
  },
};

function card(streaming: boolean): AgentCard {
  return {
    name: 'Weather Agent',
    description: 'Knows the weather.',
    supportedInterfaces: [],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming, pushNotifications: false, extendedAgentCard: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      { id: 'weather', name: 'Weather', description: 'Tells the weather.', tags: [], examples: [], inputModes: [], outputModes: [], securityRequirements: [] },
    ],
    signatures: [],
  };
}

const servers: Array<{ handler: RequestHandler; server: RunningA2AServer }> = [];
async function serve(streaming: boolean): Promise<string> {
  const handler = new RequestHandler({ card: card(streaming), executor: agent });
  const server = await startA2AServer({ handler });
  servers.push({ handler, server });
  return server.url;
}
afterAll(async () => {
  for (const { handler, server } of servers) {
    await handler.shutdown(100);
    await server.close();
  }
});

describe('runLiteExchange against a real A2A agent (JSON-RPC, plain fetch)', () => {
  let streamingUrl: string;
  let blockingUrl: string;
  beforeAll(async () => {
    streamingUrl = await serve(true);
    blockingUrl = await serve(false);
  });

  it('discover → [A2A:card] with a summary of the agent card', async () => {
    const { messages, card: lite } = await runLiteExchange(streamingUrl, '[A2A:discover]\nWhat can you do?');
    expect(messages).toEqual([
      '[A2A:card]\nI am Weather Agent.\nKnows the weather.\nMy skills:\n- Weather (weather): Tells the weather.\nStreams progress; text only.',
    ]);
    expect(lite?.protocol).toBe('a2a-lite/1.0');
  });

  it('task over a streaming agent → status per state change, then the result, as they happen', async () => {
    const seen: string[] = [];
    const { messages, ref } = await runLiteExchange(streamingUrl, '[A2A:task id=w-1 skill=weather]\nhello', { onMessage: (m) => seen.push(m) });
    expect(messages).toEqual([
      `[A2A:status task=w-1 state=accepted ref=${ref}]`,
      `[A2A:status task=w-1 state=working ref=${ref}]`,
      `[A2A:result task=w-1 state=completed ref=${ref}]\nHello`,
    ]);
    expect(seen).toEqual(messages);
    expect(messages.map((m) => parseLite(m).isA2A)).toEqual([true, true, true]);
  });

  it('task over a non-streaming agent → the final result', async () => {
    const { messages, ref } = await runLiteExchange(blockingUrl, '[A2A:task id=w-2]\nhello');
    expect(messages).toEqual([`[A2A:result task=w-2 state=completed ref=${ref}]\nHello`]);
  });

  it('input-required round trip: the question comes back, a task with ref= answers it', async () => {
    for (const url of [streamingUrl, blockingUrl]) {
      const asked = await runLiteExchange(url, '[A2A:task id=w-3]\nask me about the weather');
      expect(asked.messages.at(-1)).toBe(`[A2A:status task=w-3 state=input-required ref=${asked.ref}]\nWhich city?`);
      const answered = await runLiteExchange(url, `[A2A:task id=w-3 ref=${asked.ref}]\nParis`);
      expect(answered.messages.at(-1)).toBe(`[A2A:result task=w-3 state=completed ref=${asked.ref} artifacts=forecast]\nWeather in Paris: sunny`);
      expect(answered.messages.some((m) => m.includes('input-required'))).toBe(false);
    }
  });

  it('a failing task and a refused follow-up become result messages, not exceptions', async () => {
    const failed = await runLiteExchange(blockingUrl, '[A2A:task id=w-4]\nboom');
    expect(failed.messages).toEqual([`[A2A:result task=w-4 state=failed ref=${failed.ref}]\nAgent execution failed`]);
    const refused = await runLiteExchange(blockingUrl, `[A2A:task id=w-4 ref=${failed.ref}]\nagain`);
    expect(refused.messages).toEqual([
      expect.stringMatching(new RegExp(`^\\[A2A:result task=w-4 state=rejected ref=${failed.ref}\\]\\nThe agent answered with error -32004: `)),
    ]);
  });

  it('cancel with ref= cancels the A2A task', async () => {
    const started = await runLiteExchange(blockingUrl, '[A2A:task id=w-5]\nslow', { timeoutMs: 300 }).catch((e: Error) => e);
    expect(started).toBeInstanceOf(Error); // a blocking send of a never-ending task: the exchange deadline ends it
    const [task] = ((await (await fetch(`${blockingUrl}/a2a/tasks?pageSize=100`, { headers: { 'a2a-version': '1.0' } })).json()) as any).tasks.filter(
      (t: any) => t.status.state === 'TASK_STATE_WORKING',
    );
    const canceled = await runLiteExchange(blockingUrl, `[A2A:cancel task=w-5 ref=${task.id} reason=changed-my-mind]`);
    expect(canceled.messages).toEqual([`[A2A:result task=w-5 state=cancelled ref=${task.id}]\nThe task ended cancelled.`]);
    await expect(runLiteExchange(blockingUrl, '[A2A:cancel task=w-5]')).rejects.toThrow(LiteError);
  });

  it('untagged text degrades to a plain message both ways', async () => {
    expect((await runLiteExchange(streamingUrl, 'reply please')).messages).toEqual(['a direct answer']);
    expect((await runLiteExchange(streamingUrl, 'hello there')).messages).toEqual(['Hello']);
  });

  it('refuses worker-side messages, and says clearly when there is no agent', async () => {
    await expect(runLiteExchange(streamingUrl, '[A2A:status task=x state=working]')).rejects.toThrow(
      '[A2A:status] is what an agent sends back, not a request; nothing to send to an A2A agent',
    );
    await expect(runLiteExchange(`${streamingUrl}/nowhere`, '[A2A:discover]')).rejects.toThrow(
      /^No A2A agent card at .*\/nowhere\/\.well-known\/agent-card\.json \(HTTP 404\)$/,
    );
  });
});
