import { join, resolve } from 'node:path';
import { recordingLogger } from '@a2a-polyglot/testing';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@a2a-polyglot/core';
import { ConfigError, loadConfig, resolveConfig } from '../src/config.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { json, partsText, postJson, readSse, rpc, userMessage, V1 } from './helpers.js';

const EXAMPLES = resolve(__dirname, '../examples');
const OPENAI_KEY = 'sk-executor-test-secret-9f8e7d';

/** Records every log line (to prove secrets never reach one). */
function memoryLogger(): Logger & { text(): string } {
  const logger = recordingLogger();
  return Object.assign(logger, { text: () => JSON.stringify(logger.lines, (_k, v) => (v instanceof Error ? { message: v.message } : v)) });
}

/** A tiny OpenAI-compatible upstream: streams "Hi " + "there" or answers JSON; records requests. */
async function fakeOpenAi(): Promise<{ url: string; bodies: any[]; headers: any[]; close(): Promise<void> }> {
  const bodies: any[] = [];
  const headers: any[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const body = JSON.parse(text);
      bodies.push(body);
      headers.push(req.headers);
      const input: string = body.messages.at(-1).content;
      if (input === 'leak') {
        res
          .writeHead(401, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `Incorrect API key provided: ${req.headers.authorization}` } }));
        return;
      }
      if (!body.stream) {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: `model ${body.model} says hi` }, finish_reason: 'stop' }] }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const c of ['Hi ', 'there']) res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: c }, finish_reason: null }] })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    headers,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const started: RunningExecutor[] = [];
let upstream: Awaited<ReturnType<typeof fakeOpenAi>>;
beforeEach(async () => {
  upstream = await fakeOpenAi();
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.close()));
  await upstream.close();
});

async function start(config: Record<string, unknown>, options: Parameters<typeof startExecutor>[1] = {}): Promise<RunningExecutor> {
  const running = await startExecutor({ host: '127.0.0.1', port: 0, shutdownGraceMs: 200, demo: { chunkDelayMs: 0 }, ...config } as never, {
    env: {},
    ...options,
  });
  started.push(running);
  return running;
}

const threeAgents = () => ({
  handlers: { 'openai-chat': { baseUrl: `${upstream.url}/v1`, apiKey: OPENAI_KEY } },
  agents: [
    { id: 'writer', handler: 'openai-chat', name: 'Writer', settings: { model: 'writer-model' } },
    { id: 'demo', handler: 'demo', name: 'Demo Echo' },
    { id: 'shout', handler: 'module', name: 'Shouter', settings: { path: join(EXAMPLES, 'echo-agent.js') } },
  ],
});

const iface = (card: any, binding: string) => card.supportedInterfaces.find((i: any) => i.protocolBinding === binding)?.url;

describe('executor: several agents routed to handlers', () => {
  it('serves each agent under /agents/{id} with its own card, and the default agent at the root', async () => {
    const running = await start({ ...threeAgents(), defaultAgent: 'demo' });
    for (const [id, name] of [
      ['writer', 'Writer'],
      ['demo', 'Demo Echo'],
      ['shout', 'Shouter'],
    ]) {
      const card = await json(await fetch(`${running.url}/agents/${id}/.well-known/agent-card.json`));
      expect(card.name).toBe(name);
      expect(iface(card, 'JSONRPC')).toBe(`${running.url}/agents/${id}/a2a/rpc`);
      expect(iface(card, 'HTTP+JSON')).toBe(`${running.url}/agents/${id}/a2a`);
      expect(card.capabilities).toEqual({ streaming: true, pushNotifications: false, extendedAgentCard: false });
    }
    const root = await json(await fetch(`${running.url}/.well-known/agent-card.json`));
    expect(root.name).toBe('Demo Echo');
    expect(iface(root, 'JSONRPC')).toBe(`${running.url}/a2a/rpc`);
    expect(running.agents.map((a) => [a.id, a.endpoints.jsonRpc])).toEqual([
      ['writer', '/agents/writer/a2a/rpc'],
      ['demo', '/agents/demo/a2a/rpc'],
      ['shout', '/agents/shout/a2a/rpc'],
    ]);
    expect((await fetch(`${running.url}/agents/nobody/.well-known/agent-card.json`)).status).toBe(404);
  });

  it('lists the agents for operators at GET /agents, and serves each card at /agent.json too', async () => {
    const running = await start({ ...threeAgents(), defaultAgent: 'demo' });
    const res = await fetch(`${running.url}/agents`);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      agents: [
        { id: 'writer', name: 'Writer', cardUrl: `${running.url}/agents/writer/.well-known/agent-card.json`, default: false },
        { id: 'demo', name: 'Demo Echo', cardUrl: `${running.url}/agents/demo/.well-known/agent-card.json`, default: true },
        { id: 'shout', name: 'Shouter', cardUrl: `${running.url}/agents/shout/.well-known/agent-card.json`, default: false },
      ],
    });
    expect((await fetch(`${running.url}/agents/`)).status).toBe(200);
    expect((await fetch(`${running.url}/agents`, { method: 'POST' })).status).toBe(405);
    expect((await json(await fetch(`${running.url}/agent.json`))).name).toBe('Demo Echo');
    expect((await json(await fetch(`${running.url}/agents/shout/agent.json`))).name).toBe('Shouter');
    // A single agent is listed too: one entry, at the root (it has no /agents/{id} prefix).
    const single = await start({});
    expect(await json(await fetch(`${single.url}/agents`))).toEqual({
      agents: [{ id: '', name: 'A2A Polyglot Demo Agent', cardUrl: `${single.url}/.well-known/agent-card.json`, default: true }],
    });
    expect((await json(await fetch(`${single.url}/agent.json`))).name).toBe('A2A Polyglot Demo Agent');
  });

  it('serves the RFC 9727 API catalog: every agent API, each with its own card as service-desc, with one agent or several', async () => {
    const running = await start({ ...threeAgents(), defaultAgent: 'demo', publicBaseUrl: 'https://agents.example.com' });
    const res = await fetch(`${running.url}/.well-known/api-catalog`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
    const catalog = await json(res);
    const base = 'https://agents.example.com';
    expect(catalog.linkset.slice(1).map((entry: any) => [entry.anchor, entry['service-desc'][0].href, entry['service-desc'][0].title])).toEqual([
      [`${base}/a2a`, `${base}/.well-known/agent-card.json`, 'Demo Echo'],
      [`${base}/agents/writer/a2a`, `${base}/agents/writer/.well-known/agent-card.json`, 'Writer'],
      [`${base}/agents/demo/a2a`, `${base}/agents/demo/.well-known/agent-card.json`, 'Demo Echo'],
      [`${base}/agents/shout/a2a`, `${base}/agents/shout/.well-known/agent-card.json`, 'Shouter'],
    ]);
    expect(catalog.linkset[0].anchor).toBe(`${base}/.well-known/api-catalog`);
    expect((await fetch(`${running.url}/.well-known/api-catalog`, { method: 'HEAD' })).headers.get('link')).toBe(
      `<${base}/.well-known/api-catalog>; rel="api-catalog"`,
    );

    const single = await start({});
    const solo = await json(await fetch(`${single.url}/.well-known/api-catalog`));
    expect(solo.linkset.slice(1)).toEqual([
      {
        anchor: `${single.url}/a2a`,
        'service-desc': [{ href: `${single.url}/.well-known/agent-card.json`, type: 'application/json', title: 'A2A Polyglot Demo Agent' }],
      },
    ]);
  });

  it('routes JSON-RPC and REST calls to the right handler, each agent with its own task store', async () => {
    const running = await start(threeAgents());
    const stream = await postJson(`${running.url}/agents/writer/a2a/rpc`, rpc('SendStreamingMessage', { message: userMessage('hello') }), {
      Accept: 'text/event-stream',
    });
    const events = await readSse(stream);
    const results = events.map((e) => e.data.result);
    expect(results.filter((r) => r.artifactUpdate).map((r) => [partsText(r.artifactUpdate.artifact.parts), r.artifactUpdate.lastChunk ?? false])).toEqual([
      ['Hi ', false],
      ['there', true],
    ]);
    expect(results.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    expect(upstream.bodies[0]).toMatchObject({ model: 'writer-model', stream: true });
    expect(upstream.headers[0].authorization).toBe(`Bearer ${OPENAI_KEY}`);

    const sent = await json(await postJson(`${running.url}/agents/writer/a2a/message:send`, { message: userMessage('hello') }));
    expect(sent.message.parts).toEqual([{ text: 'model writer-model says hi' }]);

    const shouted = await json(await postJson(`${running.url}/agents/shout/a2a/message:send`, { message: userMessage('quiet please') }));
    expect(partsText(shouted.task.artifacts[0].parts)).toBe('Shouter says: QUIET PLEASE');

    const taskId = results[0].task.id;
    expect((await fetch(`${running.url}/agents/writer/a2a/tasks/${taskId}`, { headers: V1 })).status).toBe(200);
    expect((await fetch(`${running.url}/agents/demo/a2a/tasks/${taskId}`, { headers: V1 })).status).toBe(404);
    // the first agent is the default: the root paths reach the same handler and store
    expect((await fetch(`${running.url}/a2a/tasks/${taskId}`, { headers: V1 })).status).toBe(200);

    // Task run time, time to first event and the event log are labelled with each agent's id.
    const metrics = await (await fetch(`${running.url}/metrics`)).text();
    const sample = (line: string) => Number(new RegExp(`^${line.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(metrics)?.[1]);
    expect(sample('a2a_task_duration_seconds_count{agent="writer",state="TASK_STATE_COMPLETED"}')).toBe(1); // the stream
    expect(sample('a2a_task_duration_seconds_count{agent="writer",state="none"}')).toBe(1); // answered with a message
    expect(sample('a2a_task_duration_seconds_count{agent="shout",state="TASK_STATE_COMPLETED"}')).toBe(1);
    expect(sample('a2a_task_time_to_first_event_seconds_count{agent="writer"}')).toBe(2);
    expect(sample('a2a_event_log_published_total{agent="writer"}')).toBe(events.length);
    expect(sample('a2a_event_log_published_total{agent="shout"}')).toBe(0);
  });

  it('resolves handler settings: agent settings, then handlers.<name>, then the environment', async () => {
    const running = await start(
      {
        handlers: { 'openai-chat': { model: 'service-model' } },
        agents: [
          { id: 'a', handler: 'openai-chat', settings: { model: 'agent-model' } },
          { id: 'b', handler: 'openai-chat' },
        ],
      },
      { env: { OPENAI_BASE_URL: `${upstream.url}/v1`, OPENAI_MODEL: 'env-model' } },
    );
    await postJson(`${running.url}/agents/a/a2a/message:send`, { message: userMessage('x') });
    await postJson(`${running.url}/agents/b/a2a/message:send`, { message: userMessage('x') });
    expect(upstream.bodies.map((b) => b.model)).toEqual(['agent-model', 'service-model']);
  });

  it('never shows an upstream API key in cards, logs, task messages or errors', async () => {
    const logger = memoryLogger();
    const running = await start(
      { ...threeAgents(), agents: [{ ...threeAgents().agents[0], capabilities: { extendedAgentCard: true } }], publicBaseUrl: 'https://agents.example.com' },
      { logger },
    );
    const cards = await Promise.all(
      ['/.well-known/agent-card.json', '/agents/writer/.well-known/agent-card.json', '/agents/writer/a2a/extendedAgentCard'].map(async (p) =>
        (await fetch(`${running.url}${p}`, { headers: V1 })).text(),
      ),
    );
    expect(cards[2]).toContain('Writer');
    for (const c of cards) expect(c).not.toContain(OPENAI_KEY);

    const stream = await postJson(`${running.url}/agents/writer/a2a/message:stream`, { message: userMessage('leak') }, { Accept: 'text/event-stream' });
    const text = JSON.stringify(await readSse(stream));
    expect(text).toContain('TASK_STATE_FAILED');
    expect(text).toContain('Incorrect API key provided: Bearer [redacted]');
    expect(text).not.toContain(OPENAI_KEY);
    const reply = await (await postJson(`${running.url}/agents/writer/a2a/message:send`, { message: userMessage('leak') })).text();
    expect(reply).toContain('A2A request failed.');
    expect(reply).not.toContain(OPENAI_KEY);
    expect(logger.text()).toContain('[redacted]');
    expect(logger.text()).not.toContain(OPENAI_KEY);
  });

  it('refuses bad handler settings at startup with one line that never repeats the key', async () => {
    const attempt = (config: Record<string, unknown>) =>
      start(config).then(
        () => 'started',
        (e: Error) => e,
      );
    const unknown = await attempt({ agents: [{ id: 'x', handler: 'langchain' }] });
    expect(unknown).toBeInstanceOf(ConfigError);
    expect((unknown as Error).message).toBe(
      'Invalid configuration: agent "x": Unknown handler "langchain" (known: openai-chat, hermes-runs, openclaw-responses, demo, module, a2a-remote)',
    );
    const missing = await attempt({ agents: [{ id: 'x', handler: 'openai-chat' }] });
    expect((missing as Error).message).toMatch(/^Invalid configuration: agent "x": agents\[0\]\.settings\.model is required/);
    const badKey = await attempt({ handlers: { 'openai-chat': { apiKey: 42, model: 'm' } }, agents: [{ id: 'x', handler: 'openai-chat' }] });
    expect((badKey as Error).message).toBe(
      'Invalid configuration: agent "x": handlers.openai-chat.apiKey must be a non-empty string (the value is not shown: it is a secret)',
    );
    const typo = await attempt({ handlers: { 'open-ai': {} }, agents: [{ id: 'x', handler: 'demo' }] });
    expect((typo as Error).message).toBe(
      'Invalid configuration: handlers.open-ai names no handler (known: openai-chat, hermes-runs, openclaw-responses, demo, module, a2a-remote)',
    );
  });
});

describe('config: agents, handlers, defaultAgent', () => {
  it('fills card defaults for an agent entry', () => {
    const config = resolveConfig({ agents: [{ id: 'bot', handler: 'demo' }] } as never);
    expect(config.agents[0]).toMatchObject({
      id: 'bot',
      handler: 'demo',
      settings: {},
      name: 'bot',
      description: 'bot, served through the demo handler',
      version: '1.0.0',
      skills: [{ id: 'chat', name: 'Chat' }],
      capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
      defaultInputModes: ['text/plain', 'application/json', '*/*'], // what the demo handler reads
      acceptAnyInputMode: false,
    });
    expect(resolveConfig({}).agents).toEqual([]);
  });

  it('rejects bad agent lists with one line naming the key', () => {
    const error = (input: unknown) => {
      try {
        resolveConfig(input as never);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(error({ agents: {} })).toBe('Invalid configuration: agents must be an array of agents (got {})');
    expect(error({ agents: [{ id: 'a/b', handler: 'demo' }] })).toMatch(/^Invalid configuration: agents\[0\]\.id must be an id of letters/);
    expect(error({ agents: [{ id: 'a', handler: 'demo', colour: 'red' }] })).toMatch(
      /^Invalid configuration: unknown key agents\[0\]\.colour \(known: id, handler, settings, name/,
    );
    expect(error({ agents: [{ id: 'a' }] })).toBe('Invalid configuration: agents[0].handler must be a non-empty string (got undefined)');
    expect(
      error({
        agents: [
          { id: 'a', handler: 'demo' },
          { id: 'a', handler: 'demo' },
        ],
      }),
    ).toBe('Invalid configuration: duplicate agent id "a" in agents[1].id');
    expect(error({ agents: [{ id: 'a', handler: 'demo' }], defaultAgent: 'b' })).toBe(
      'Invalid configuration: defaultAgent "b" is not the id of an entry in agents (ids: a)',
    );
    expect(error({ agents: [{ id: 'a', handler: 'demo' }], agentModule: '/x.js' })).toMatch(
      /^Invalid configuration: agentModule serves the single agent; with agents, declare it/,
    );
    expect(error({ handlers: { 'openai-chat': 'key' } })).toBe('Invalid configuration: handlers.openai-chat must be an object (got "key")');
  });

  it('resolves a module handler path against the config file directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'executor-agents-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ agents: [{ id: 'm', handler: 'module', settings: { path: './my-agent.js' } }] }));
    const { config } = loadConfig({ argv: ['--config', file], env: {}, cwd: tmpdir() });
    expect(config.agents[0]!.settings.path).toBe(join(dir, 'my-agent.js'));
  });

  it('the example configs load and validate', () => {
    const single = loadConfig({ argv: ['--config', join(EXAMPLES, 'openai-bridge.json')], env: {}, cwd: tmpdir() }).config;
    expect(single.agents.map((a) => [a.id, a.handler])).toEqual([['assistant', 'openai-chat']]);
    expect(single.handlers['openai-chat']).toMatchObject({ baseUrl: 'http://127.0.0.1:11434/v1' });
    const many = loadConfig({ argv: ['--config', join(EXAMPLES, 'agents.json')], env: {}, cwd: tmpdir() }).config;
    expect(many.agents.map((a) => a.handler)).toEqual(['openai-chat', 'hermes-runs', 'openclaw-responses', 'module']);
    expect(many.agents[3]!.settings.path).toBe(join(EXAMPLES, 'echo-agent.js'));
    expect(many.defaultAgent).toBe('assistant');
  });

  it('the example config serves an OpenAI-compatible server over A2A', async () => {
    const { config } = loadConfig({ argv: ['--config', join(EXAMPLES, 'openai-bridge.json'), '--port', '0'], env: {}, cwd: tmpdir() });
    const running = await start({ ...config, handlers: { 'openai-chat': { ...config.handlers['openai-chat'], baseUrl: `${upstream.url}/v1` } } });
    const card = await json(await fetch(`${running.url}/.well-known/agent-card.json`));
    expect(card.name).toBe('Local Assistant');
    const res = await json(await postJson(`${running.url}/a2a/rpc`, rpc('SendMessage', { message: userMessage('hi') })));
    expect(res.result.message.parts).toEqual([{ text: 'model llama3.1:8b says hi' }]);
    expect(upstream.bodies[0].messages[0]).toEqual({ role: 'system', content: 'You are a concise assistant.' });
  });
});
