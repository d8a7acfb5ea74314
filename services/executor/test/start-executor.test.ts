import { silentLogger } from '@a2a-polyglot/core';
import { join, resolve } from 'node:path';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { json, partsText, postJson, readSse, rpc, userMessage, V1, waitFor, type SseEvent } from './helpers.js';

const CARD_PATHS = ['/.well-known/agent-card.json', '/a2a/.well-known/agent-card.json', '/.well-known/agent.json'];

/** Every executor a test starts is closed afterwards, even when the test fails. */
const started: RunningExecutor[] = [];
async function start(config: Parameters<typeof startExecutor>[0] = {}, options: Parameters<typeof startExecutor>[1] = {}): Promise<RunningExecutor> {
  const running = await startExecutor(
    { host: '127.0.0.1', port: 0, demo: { chunkDelayMs: 0 }, shutdownGraceMs: 200, ...config },
    { logger: silentLogger, ...options },
  );
  started.push(running);
  return running;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.close()));
});

const iface = (card: any, binding: string) => card.supportedInterfaces.find((i: any) => i.protocolBinding === binding);
const payloadKinds = (events: SseEvent[], unwrap: (e: SseEvent) => any) => events.map((e) => Object.keys(unwrap(e))[0]);
const finalState = (events: SseEvent[], unwrap: (e: SseEvent) => any) => {
  const last = unwrap(events[events.length - 1]!);
  return last.statusUpdate?.status?.state ?? last.task?.status?.state;
};
const streamedText = (events: SseEvent[], unwrap: (e: SseEvent) => any) =>
  events
    .map(unwrap)
    .flatMap((r) => (r.artifactUpdate ? [partsText(r.artifactUpdate.artifact.parts)] : []))
    .join('');

describe('startExecutor (e2e over real sockets)', () => {
  it('serves the same card at all three discovery paths with absolute URLs for this listener', async () => {
    const running = await start();
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const cards = await Promise.all(
      CARD_PATHS.map(async (path) => {
        const res = await fetch(`${running.url}${path}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/json/);
        return json(res);
      }),
    );
    expect(cards[1]).toEqual(cards[0]);
    expect(cards[2]).toEqual(cards[0]);
    const card = cards[0];
    expect(card.name).toBe('A2A Polyglot Demo Agent');
    expect(card.capabilities).toEqual({ streaming: true, pushNotifications: true, extendedAgentCard: false });
    expect(iface(card, 'JSONRPC')).toMatchObject({ url: `${running.url}/a2a/rpc`, protocolVersion: '1.0' });
    expect(iface(card, 'HTTP+JSON')).toMatchObject({ url: `${running.url}/a2a`, protocolVersion: '1.0' });
  });

  it('ignores unknown request members by default; strictRequests rejects them with INVALID_PARAMS', async () => {
    const request = { message: userMessage('hi', { later: true }), laterField: 1 };
    const lenient = await start({ grpcPort: false });
    const ok = await json(await postJson(`${lenient.url}/a2a/rpc`, rpc('SendMessage', request)));
    expect(ok.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(JSON.stringify(ok.result.task)).not.toMatch(/later/);
    const strict = await start({ grpcPort: false, strictRequests: true });
    const refused = await json(await postJson(`${strict.url}/a2a/rpc`, rpc('SendMessage', request)));
    expect(refused.error.code).toBe(-32602);
    const rest = await postJson(`${strict.url}/a2a/message:send`, request);
    expect(rest.status).toBe(400);
  });

  it('advertises publicBaseUrl instead of the bound address', async () => {
    const running = await start({ publicBaseUrl: 'https://agents.example.com/openclaw' });
    for (const path of CARD_PATHS) {
      const card = await json(await fetch(`${running.url}${path}`));
      expect(iface(card, 'JSONRPC').url).toBe('https://agents.example.com/openclaw/a2a/rpc');
      expect(iface(card, 'HTTP+JSON').url).toBe('https://agents.example.com/openclaw/a2a');
    }
  });

  it('honours a custom basePath', async () => {
    const running = await start({ basePath: '/agents/echo' });
    const card = await json(await fetch(`${running.url}/agents/echo/.well-known/agent-card.json`));
    expect(iface(card, 'JSONRPC').url).toBe(`${running.url}/agents/echo/rpc`);
    const res = await postJson(`${running.url}/agents/echo/message:send`, { message: userMessage('hi') });
    expect(res.status).toBe(200);
    expect((await json(res)).task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  describe('JSON-RPC', () => {
    it('SendMessage answers with the completed task wrapped in {task}', async () => {
      const running = await start();
      const res = await postJson(`${running.url}/a2a/rpc`, rpc('SendMessage', { message: userMessage('hello over json-rpc') }, 7));
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 7 });
      expect(body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(partsText(body.result.task.artifacts[0].parts)).toBe('Echo: hello over json-rpc');
    });

    it('SendStreamingMessage streams task, working, chunks and completed as JSON-RPC responses', async () => {
      const running = await start();
      const res = await postJson(`${running.url}/a2a/rpc`, rpc('SendStreamingMessage', { message: userMessage('one two three four five') }, 'abc'), {
        Accept: 'text/event-stream',
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events = await readSse(res);
      expect(events.every((e) => e.data.jsonrpc === '2.0' && e.data.id === 'abc')).toBe(true);
      const unwrap = (e: SseEvent) => e.data.result;
      const kinds = payloadKinds(events, unwrap);
      expect(kinds[0]).toBe('task');
      expect(kinds.filter((k) => k === 'artifactUpdate').length).toBe(2);
      expect(finalState(events, unwrap)).toBe('TASK_STATE_COMPLETED');
      expect(streamedText(events, unwrap)).toBe('Echo: one two three four five');
    });

    it('rejects a request without A2A-Version (it means 0.3)', async () => {
      const running = await start();
      const res = await fetch(`${running.url}/a2a/rpc`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(rpc('SendMessage', { message: userMessage('x') })),
      });
      const body = await json(res);
      expect(body.error.code).toBe(-32009);
    });
  });

  describe('HTTP+JSON', () => {
    it('POST /message:send answers with {task}', async () => {
      const running = await start();
      const res = await postJson(`${running.url}/a2a/message:send`, { message: userMessage('hello over rest') });
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(partsText(body.task.artifacts[0].parts)).toBe('Echo: hello over rest');
      const got = await fetch(`${running.url}/a2a/tasks/${body.task.id}`, { headers: V1 });
      expect((await json(got)).status.state).toBe('TASK_STATE_COMPLETED');
    });

    it('POST /message:stream streams StreamResponse objects', async () => {
      const running = await start();
      const res = await postJson(`${running.url}/a2a/message:stream`, { message: userMessage('one two three four five') }, { Accept: 'text/event-stream' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events = await readSse(res);
      const unwrap = (e: SseEvent) => e.data;
      expect(payloadKinds(events, unwrap)[0]).toBe('task');
      expect(finalState(events, unwrap)).toBe('TASK_STATE_COMPLETED');
      expect(streamedText(events, unwrap)).toBe('Echo: one two three four five');
    });

    it('reports the demo failure as a FAILED task', async () => {
      const running = await start();
      const body = await json(await postJson(`${running.url}/a2a/message:send`, { message: userMessage('fail now') }));
      expect(body.task.status.state).toBe('TASK_STATE_FAILED');
      expect(partsText(body.task.status.message.parts)).toMatch(/failed on purpose/);
    });
  });

  it('caps ListTasks pages at listTasksMaxBytes: paging returns every task once', async () => {
    const running = await start({ listTasksMaxBytes: 2000 });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const body = await json(await postJson(`${running.url}/a2a/message:send`, { message: userMessage(`task ${i} ${'word '.repeat(300)}`) }));
      ids.push(body.task.id);
    }
    const seen: string[] = [];
    let token = '';
    do {
      const page = await json(
        await fetch(`${running.url}/a2a/tasks?pageSize=100&includeArtifacts=true${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`, { headers: V1 }),
      );
      expect(page.tasks).toHaveLength(1); // each task alone is over the 2000-byte budget
      seen.push(...page.tasks.map((t: { id: string }) => t.id));
      token = page.nextPageToken;
    } while (token !== '' && seen.length < 10);
    expect(seen.sort()).toEqual(ids.sort());
  });

  it('requires an API key when keys are configured (card stays public)', async () => {
    const running = await start({ auth: { apiKeys: { s3cret: 'alice' } } });
    expect((await fetch(`${running.url}/.well-known/agent-card.json`)).status).toBe(200);
    const denied = await postJson(`${running.url}/a2a/message:send`, { message: userMessage('hi') });
    expect(denied.status).toBe(401);
    const allowed = await postJson(`${running.url}/a2a/message:send`, { message: userMessage('hi') }, { 'x-api-key': 's3cret' });
    expect(allowed.status).toBe(200);
    const bearer = await postJson(`${running.url}/a2a/message:send`, { message: userMessage('hi') }, { Authorization: 'Bearer s3cret' });
    expect(bearer.status).toBe(200);
  });

  it('serves the public card as the extended card when extendedAgentCard is on', async () => {
    const off = await start();
    expect((await fetch(`${off.url}/a2a/extendedAgentCard`, { headers: V1 })).status).toBe(400);
    const on = await start({ agent: { capabilities: { extendedAgentCard: true } } });
    const res = await fetch(`${on.url}/a2a/extendedAgentCard`, { headers: V1 });
    expect(res.status).toBe(200);
    const card = await json(res);
    expect(card.name).toBe('A2A Polyglot Demo Agent');
    expect(card.capabilities.extendedAgentCard).toBe(true);
    const proxied = await start({ publicBaseUrl: 'https://agents.example.com/x', agent: { capabilities: { extendedAgentCard: true } } });
    const extended = await json(await fetch(`${proxied.url}/a2a/extendedAgentCard`, { headers: V1 }));
    expect(iface(extended, 'JSONRPC').url).toBe('https://agents.example.com/x/a2a/rpc');
    expect(iface(extended, 'HTTP+JSON').url).toBe('https://agents.example.com/x/a2a');
  });

  it('loads the example agent module from examples/config.json settings', async () => {
    const examples = resolve(__dirname, '../examples');
    const running = await start({ agentModule: join(examples, 'echo-agent.js'), agent: { name: 'Shouting Echo' } });
    const body = await json(await postJson(`${running.url}/a2a/message:send`, { message: userMessage('quiet please') }));
    expect(partsText(body.task.artifacts[0].parts)).toBe('Shouting Echo says: QUIET PLEASE');
  });

  describe('graceful shutdown', () => {
    it('fails an in-flight slow task visibly, then stops listening', async () => {
      const running = await start({ shutdownGraceMs: 100 });
      const res = await postJson(`${running.url}/a2a/message:stream`, { message: userMessage('slow') }, { Accept: 'text/event-stream' });
      let sawTicks!: () => void;
      const ticking = new Promise<void>((r) => (sawTicks = r));
      const reading = readSse(res, {
        until: (_e, all) => {
          if (all.filter((x) => x.data.artifactUpdate).length === 2) sawTicks();
          return false;
        },
        timeoutMs: 10_000,
      });
      await ticking;
      const closing = running.close();
      const events = await reading; // the server ends the stream after the terminal event
      await closing;
      const last = events[events.length - 1]!.data;
      expect(last.statusUpdate.status.state).toBe('TASK_STATE_FAILED');
      expect(partsText(last.statusUpdate.status.message.parts)).toMatch(/shut down/);
      await expect(fetch(`${running.url}/.well-known/agent-card.json`)).rejects.toThrow();
    });

    it('lets a task that finishes within the grace period complete', async () => {
      const running = await start({ shutdownGraceMs: 5000, demo: { chunkDelayMs: 20 } });
      const res = await postJson(`${running.url}/a2a/message:stream`, { message: userMessage('a b c d e f g h i j k l') }, { Accept: 'text/event-stream' });
      let first!: () => void;
      const started = new Promise<void>((r) => (first = r));
      const reading = readSse(res, { until: (e) => (e.data.artifactUpdate && first(), false) });
      await started;
      await running.close();
      const events = await reading;
      expect(events[events.length - 1]!.data.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    });

    it('refuses new calls while shutting down and close() is idempotent', async () => {
      const running = await start({ shutdownGraceMs: 2000 });
      const slow = postJson(`${running.url}/a2a/message:send`, { message: userMessage('slow'), configuration: { returnImmediately: true } });
      const task = (await json(await slow)).task;
      expect(task.status.state).toMatch(/TASK_STATE_(SUBMITTED|WORKING)/);
      const closing = running.close();
      expect(running.close()).toBe(closing);
      await waitFor(async () => {
        const res = await postJson(`${running.url}/a2a/message:send`, { message: userMessage('late') }).catch(() => undefined);
        return res === undefined || res.status === 503;
      });
      await closing;
    });
  });
});
