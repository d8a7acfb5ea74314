import { recordingLogger } from '@a2a-polyglot/testing';
import { aliasPathOf } from '../src/agents.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { json, postJson, rpc, userMessage } from './helpers.js';

/**
 * The daemon-engine path shape: every mounted agent also answers JSON-RPC at `POST /{id}/a2a`
 * and serves its card at `/{id}/.well-known/agent-card.json`, next to its `/agents/{id}` paths.
 */
const started: RunningExecutor[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.close()));
});

async function start(config: Record<string, unknown>, options: Parameters<typeof startExecutor>[1] = {}): Promise<RunningExecutor> {
  const running = await startExecutor({ host: '127.0.0.1', port: 0, shutdownGraceMs: 200, demo: { chunkDelayMs: 0 }, ...config } as never, {
    env: {},
    logger: recordingLogger(),
    ...options,
  });
  started.push(running);
  return running;
}

/** A JSON-RPC call without `A2A-Version`: a v0.3 client. */
function postV03(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

const v03Message = (text: string) => ({ kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] });

const twoAgents = {
  agents: [
    { id: 'a', handler: 'demo', name: 'Agent A' },
    { id: 'b', handler: 'demo', name: 'Agent B' },
  ],
};

describe('executor: the /{id}/a2a alias of every mounted agent', () => {
  it('answers v1.0 and v0.3 JSON-RPC at POST /{id}/a2a, each agent with its own task store', async () => {
    const running = await start(twoAgents);
    const sentA = await json(await postJson(`${running.url}/a/a2a`, rpc('SendMessage', { message: userMessage('to a') })));
    const taskA: string = sentA.result.task.id;
    expect(sentA.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const sentB = await json(await postV03(`${running.url}/b/a2a`, rpc('message/send', { message: v03Message('to b') })));
    expect(sentB.result.kind).toBe('task');
    expect(sentB.result.status.state).toBe('completed');
    const taskB: string = sentB.result.id;

    // Each task is readable from its own agent, at the alias and at the mount path...
    expect((await json(await postJson(`${running.url}/a/a2a`, rpc('GetTask', { id: taskA })))).result.id).toBe(taskA);
    expect((await json(await postJson(`${running.url}/agents/a/a2a/rpc`, rpc('GetTask', { id: taskA })))).result.id).toBe(taskA);
    expect((await json(await postV03(`${running.url}/b/a2a`, rpc('tasks/get', { id: taskB })))).result.id).toBe(taskB);
    expect((await json(await postV03(`${running.url}/agents/b/a2a/rpc`, rpc('tasks/get', { id: taskB })))).result.id).toBe(taskB);
    // ...and from the other agent's path it is not found.
    expect((await json(await postJson(`${running.url}/b/a2a`, rpc('GetTask', { id: taskA })))).error.code).toBe(-32001);
    expect((await json(await postV03(`${running.url}/a/a2a`, rpc('tasks/get', { id: taskB })))).error.code).toBe(-32001);
    // The default agent (the first) is still served at the root too.
    expect((await json(await postJson(`${running.url}/a2a/rpc`, rpc('GetTask', { id: taskA })))).result.id).toBe(taskA);
  });

  it("serves each agent's card at /{id}/.well-known/agent-card.json, the same card as under /agents/{id}", async () => {
    const running = await start(twoAgents);
    for (const id of ['a', 'b']) {
      const res = await fetch(`${running.url}/${id}/.well-known/agent-card.json`);
      expect(res.status).toBe(200);
      const card = await json(res);
      expect(card.name).toBe(`Agent ${id.toUpperCase()}`);
      expect(card).toEqual(await json(await fetch(`${running.url}/agents/${id}/.well-known/agent-card.json`)));
    }
    expect((await json(await fetch(`${running.url}/.well-known/agent-card.json`))).name).toBe('Agent A');
  });

  it('answers an unknown id with the 404 of any unserved path', async () => {
    const running = await start(twoAgents);
    const rpcRes = await postJson(`${running.url}/nobody/a2a`, rpc('SendMessage', { message: userMessage('to nobody') }));
    expect(rpcRes.status).toBe(404);
    expect(JSON.stringify(await json(rpcRes))).toContain('Nothing is served at /nobody/a2a');
    expect((await fetch(`${running.url}/nobody/.well-known/agent-card.json`)).status).toBe(404);
    // Only the two alias paths: the rest of an agent's API stays under /agents/{id}.
    expect((await postJson(`${running.url}/a/a2a/message:send`, { message: userMessage('rest at the alias') })).status).toBe(404);
    expect((await fetch(`${running.url}/a/agent.json`)).status).toBe(404);
  });

  it('gives no alias to an id that is a root path of the service, which keeps its own paths', async () => {
    const logger = recordingLogger();
    const running = await start(
      {
        agents: [
          { id: 'first', handler: 'demo', name: 'First' },
          ...['a2a', 'agents', 'healthz', 'metrics'].map((id) => ({ id, handler: 'demo', name: `Agent ${id}` })),
        ],
      },
      { logger },
    );
    // /a2a/.well-known/agent-card.json is the root agent's card, not the agent "a2a"'s.
    expect((await json(await fetch(`${running.url}/a2a/.well-known/agent-card.json`))).name).toBe('First');
    expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${running.url}/metrics`)).status).toBe(200);
    expect((await json(await fetch(`${running.url}/agents`))).agents).toHaveLength(5);
    for (const id of ['agents', 'healthz', 'metrics']) expect((await fetch(`${running.url}/${id}/.well-known/agent-card.json`)).status).toBe(404);
    // Each is still served under /agents/{id}.
    for (const id of ['a2a', 'agents', 'healthz', 'metrics']) {
      expect((await json(await fetch(`${running.url}/agents/${id}/.well-known/agent-card.json`))).name).toBe(`Agent ${id}`);
      const sent = await json(await postJson(`${running.url}/agents/${id}/a2a/rpc`, rpc('SendMessage', { message: userMessage(`to ${id}`) })));
      expect(sent.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    }
    expect(logger.messages('warn').filter((m) => m.includes('has no short paths'))).toHaveLength(4);
  });

  it('reserves the first segment of basePath, or /tasks when the REST routes are at the root', () => {
    expect(aliasPathOf('a', '/a2a')).toBe('/a');
    expect(aliasPathOf('a2a', '/a2a')).toBeUndefined();
    expect(aliasPathOf('a2a', '/api/v1')).toBe('/a2a');
    expect(aliasPathOf('api', '/api/v1')).toBeUndefined();
    expect(aliasPathOf('tasks', '')).toBeUndefined();
    expect(aliasPathOf('tasks', '/a2a')).toBe('/tasks');
    expect(aliasPathOf('inspector', '/a2a')).toBeUndefined();
  });
});
