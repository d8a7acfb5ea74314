/**
 * The `a2a-remote` handler: a gateway executor fronts a remote A2A server (our own executor
 * with the demo agent), over real sockets. Sends to the gateway over JSON-RPC, gRPC and
 * WebSocket reach the remote agent; its events (status, artifact chunks, input-required) come
 * back on the gateway's task; a follow-up continues the remote task; a cancel reaches the
 * remote task; an unreachable remote fails the task with the reason. The same against the
 * official SDK's v0.3 server (@a2a-js/sdk 0.3.14): send, stream, cancel and input-required
 * through the gateway over gRPC and over WebSocket.
 */
import { RequestHandler, silentLogger } from '@a2a-polyglot/core';
import {
  type BindingKey,
  Client,
  GRPC_BINDING,
  textMessage,
  WEBSOCKET_BINDING,
  type WebSocketConstructor,
  webSocketTransportFactory,
} from '@a2a-polyglot/client';
import { grpcTransportFactory } from '@a2a-polyglot/client/grpc';
import { type Task, TaskState } from '@a2a-polyglot/model';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { WebSocket } from 'ws';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { startSdkV03Server } from '../../../packages/client/test/sdk-v03-server.js';
import { testAgentCard } from '@a2a-polyglot/testing';
import { createDemoAgent } from '../src/demo-agent.js';
import { collectStream, waitFor } from './helpers.js';
import { startV03OnlyServer } from './v03-only-server.js';

const WS = WebSocket as unknown as WebSocketConstructor;

const started: RunningExecutor[] = [];
const clients: Client[] = [];
/** Remote servers that are not executors (the v0.3 ones), closed after every executor. */
const remotes: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  // The gateway first (it holds connections to the remote), then the remote.
  for (const running of started.splice(0).reverse()) await running.close();
  for (const remote of remotes.splice(0)) await remote.close();
});

/** `server`, closed after the test. */
function closedAfterwards<T extends { close(): Promise<void> }>(server: T): T {
  remotes.push(server);
  return server;
}

/** The API key the remote requires (the gateway's agents send it as a configured header). */
const REMOTE_KEY = 'remote-secret-key';

/** The remote A2A server: our executor with the demo agent, behind an API key. */
async function startRemote(extra: Record<string, unknown> = {}): Promise<RunningExecutor> {
  const running = await startExecutor(
    { host: '127.0.0.1', port: 0, grpcPort: 0, shutdownGraceMs: 200, demo: { chunkDelayMs: 0 }, auth: { apiKeys: { [REMOTE_KEY]: 'gateway' } }, ...extra },
    { logger: silentLogger, env: {} },
  );
  started.push(running);
  return running;
}

/** A port nothing listens on: one just given by the OS and closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** What the gateway's caller of the remote sees there: the remote's tasks (with artifacts). */
async function remoteTasks(remote: RunningExecutor): Promise<Task[]> {
  const client = await Client.connect(remote.url, { apiKey: REMOTE_KEY });
  clients.push(client);
  return (await client.listTasks({ includeArtifacts: true })).tasks;
}

/**
 * The gateway: agents fronting the remote (over its card's first binding, and over gRPC), one
 * without the remote's API key, and one whose remote is gone.
 */
async function startGateway(remote: { url: string }): Promise<RunningExecutor> {
  const auth = { 'x-api-key': REMOTE_KEY };
  const running = await startExecutor(
    {
      host: '127.0.0.1',
      port: 0,
      grpcPort: 0,
      shutdownGraceMs: 200,
      agents: [
        { id: 'remote', handler: 'a2a-remote', name: 'Remote', settings: { url: remote.url, headers: auth } },
        { id: 'remote-grpc', handler: 'a2a-remote', name: 'Remote over gRPC', settings: { url: remote.url, headers: auth, binding: 'grpc' } },
        { id: 'no-key', handler: 'a2a-remote', name: 'No key', settings: { url: remote.url } },
        { id: 'gone', handler: 'a2a-remote', name: 'Gone', settings: { url: `http://127.0.0.1:${await closedPort()}`, timeoutMs: 5_000 } },
      ],
    },
    { logger: silentLogger, env: {} },
  );
  started.push(running);
  return running;
}

async function connect(gateway: RunningExecutor, agent: string, binding: BindingKey): Promise<Client> {
  const client = await Client.connect(`${gateway.url}/agents/${agent}`, {
    bindings: [binding],
    transports: { [GRPC_BINDING]: grpcTransportFactory, [WEBSOCKET_BINDING]: webSocketTransportFactory({ WebSocket: WS }) },
    timeoutMs: 10_000,
  });
  clients.push(client);
  return client;
}

const taskOf = (response: { payload?: { $case: string; value: unknown } }): Task => {
  if (response.payload?.$case !== 'task') throw new Error(`expected a task, got ${response.payload?.$case}`);
  return response.payload.value as Task;
};
const artifactText = (task: Task): string =>
  task.artifacts
    .flatMap((a) => a.parts)
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .join('');
const statusText = (task: Task): string => (task.status?.message?.parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');

describe('executor: the a2a-remote handler', () => {
  it.each(['jsonrpc', 'grpc', 'websocket'] as const)("a blocking send to the gateway over %s completes with the remote agent's artifact", async (binding) => {
    const remote = await startRemote();
    const gateway = await startGateway(remote);
    const client = await connect(gateway, 'remote', binding);
    expect(client.binding).toBe(binding);
    const task = taskOf(await client.sendMessage({ message: textMessage(`hello over ${binding}`) }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task)).toBe(`Echo: hello over ${binding}`);
    // The remote ran a task of its own for it.
    const tasks = await remoteTasks(remote);
    expect(tasks.map((t) => [t.status?.state, artifactText(t)])).toEqual([[TaskState.TASK_STATE_COMPLETED, `Echo: hello over ${binding}`]]);
    expect(tasks[0]!.id).not.toBe(task.id);
  });

  it('reaches the remote over gRPC when the agent says so (binding: grpc)', async () => {
    const remote = await startRemote();
    const gateway = await startGateway(remote);
    const client = await connect(gateway, 'remote-grpc', 'jsonrpc');
    const task = taskOf(await client.sendMessage({ message: textMessage('through grpc') }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task)).toBe('Echo: through grpc');
    expect((await remoteTasks(remote)).map(artifactText)).toEqual(['Echo: through grpc']);
  });

  it("a streaming send yields the remote agent's events: working, the artifact chunks, completed", async () => {
    const remote = await startRemote();
    const gateway = await startGateway(remote);
    const client = await connect(gateway, 'remote', 'jsonrpc');
    const stream = client.sendStreamingMessage({ message: textMessage('one two three four five six seven') });
    const events = await collectStream(stream);
    expect(stream.end).toBe('terminal');
    const cases = events.map((e) => e.event.payload?.$case);
    expect(cases[0]).toBe('task');
    const states = events.flatMap((e) => (e.event.payload?.$case === 'statusUpdate' ? [e.event.payload.value.status?.state] : []));
    expect(states).toContain(TaskState.TASK_STATE_WORKING);
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    const chunks = events.flatMap((e) => (e.event.payload?.$case === 'artifactUpdate' ? [e.event.payload.value] : []));
    // The demo agent streams three words per chunk: "Echo: one two", " three four five", " six seven".
    expect(chunks.length).toBe(3);
    expect(chunks.map((c) => [c.append, c.lastChunk])).toEqual([
      [false, false],
      [true, false],
      [true, true],
    ]);
    expect(new Set(chunks.map((c) => c.artifact?.artifactId)).size).toBe(1);
    expect(chunks.map((c) => (c.artifact?.parts[0]?.content?.$case === 'text' ? c.artifact.parts[0].content.value : '')).join('')).toBe(
      'Echo: one two three four five six seven',
    );
    // Every event is about the gateway's task.
    const id = stream.taskId;
    for (const { event } of events) {
      if (event.payload?.$case === 'task') expect(event.payload.value.id).toBe(id);
      else if (event.payload?.$case === 'statusUpdate' || event.payload?.$case === 'artifactUpdate') expect(event.payload.value.taskId).toBe(id);
    }
  });

  it('input-required passes through, and the follow-up to our task continues the remote task', async () => {
    const remote = await startRemote();
    const gateway = await startGateway(remote);
    const client = await connect(gateway, 'remote', 'grpc');
    const first = taskOf(await client.sendMessage({ message: textMessage('ask') }));
    expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(first)).toMatch(/What should I echo back/);
    const second = taskOf(await client.sendMessage({ message: textMessage('my answer', { taskId: first.id, contextId: first.contextId }) }));
    expect(second.id).toBe(first.id);
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(second)).toBe('Echo: my answer');
    // One remote task, continued, not two.
    const tasks = await remoteTasks(remote);
    expect(tasks.map((t) => t.status?.state)).toEqual([TaskState.TASK_STATE_COMPLETED]);
  });

  it('a cancel of our task cancels the remote task', async () => {
    const remote = await startRemote();
    const gateway = await startGateway(remote);
    const client = await connect(gateway, 'remote', 'websocket');
    const stream = client.sendStreamingMessage({ message: textMessage('slow') });
    let canceled: Task | undefined;
    const events = await collectStream(stream, async ({ event }) => {
      if (event.payload?.$case === 'artifactUpdate' && !canceled) canceled = await client.cancelTask({ id: stream.taskId! });
    });
    expect(canceled?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(events.at(-1)?.event.payload?.$case === 'statusUpdate' && events.at(-1)?.event.payload?.value).toMatchObject({
      status: { state: TaskState.TASK_STATE_CANCELED },
    });
    await waitFor(
      async () => {
        const tasks = await remoteTasks(remote);
        return tasks.length === 1 && tasks[0]!.status?.state === TaskState.TASK_STATE_CANCELED;
      },
      { what: 'the remote task canceled' },
    );
  });

  it('an unreachable remote fails the task with the reason', async () => {
    const remote = await startRemote();
    const gateway = await startGateway(remote);
    const client = await connect(gateway, 'gone', 'jsonrpc');
    const task = taskOf(await client.sendMessage({ message: textMessage('anyone there?') }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(statusText(task)).toMatch(/^Could not connect to the remote agent: Cannot reach http:\/\/127\.0\.0\.1:\d+: connection refused/);
    // The gateway keeps serving.
    const ok = taskOf(await (await connect(gateway, 'remote', 'jsonrpc')).sendMessage({ message: textMessage('still here') }));
    expect(ok.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('a follow-up in the same context starts a new remote task in the remote context', async () => {
    const remote = await startRemote();
    const gateway = await startGateway(remote);
    const client = await connect(gateway, 'remote', 'jsonrpc');
    const first = taskOf(await client.sendMessage({ message: textMessage('first') }));
    const second = taskOf(await client.sendMessage({ message: textMessage('second', { contextId: first.contextId }) }));
    expect(second.id).not.toBe(first.id);
    expect(second.contextId).toBe(first.contextId);
    const tasks = await remoteTasks(remote);
    expect(tasks).toHaveLength(2);
    expect(new Set(tasks.map((t) => t.contextId)).size).toBe(1);
    expect(tasks[0]!.contextId).not.toBe(first.contextId);
  });

  it('a cancel of our task waiting for input cancels the remote task', async () => {
    const remote = await startRemote();
    const gateway = await startGateway(remote);
    const client = await connect(gateway, 'remote', 'rest');
    const task = taskOf(await client.sendMessage({ message: textMessage('ask') }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect((await client.cancelTask({ id: task.id })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await remoteTasks(remote)).map((t) => t.status?.state)).toEqual([TaskState.TASK_STATE_CANCELED]);
  });

  it('a remote without streaming: a streaming caller of the gateway still gets the events', async () => {
    const remote = await startRemote({ agent: { capabilities: { streaming: false } } });
    const gateway = await startGateway(remote);
    const client = await connect(gateway, 'remote', 'jsonrpc');
    const stream = client.sendStreamingMessage({ message: textMessage('no streams here') });
    const events = await collectStream(stream);
    expect(stream.end).toBe('terminal');
    const text = events
      .flatMap((e) => (e.event.payload?.$case === 'artifactUpdate' ? (e.event.payload.value.artifact?.parts ?? []) : []))
      .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
      .join('');
    expect(text).toBe('Echo: no streams here');
    const last = events.at(-1)?.event.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('a remote without streaming: a send that returns at once shows the remote task working, and a cancel cancels it', async () => {
    const remote = await startRemote({ agent: { capabilities: { streaming: false } } });
    const gateway = await startGateway(remote);
    const client = await connect(gateway, 'remote', 'jsonrpc');
    const task = taskOf(await client.sendMessage({ message: textMessage('slow'), configuration: { returnImmediately: true } }));
    await waitFor(async () => (await client.getTask({ id: task.id })).status?.state === TaskState.TASK_STATE_WORKING, { what: 'our task working' });
    expect(statusText(await client.getTask({ id: task.id }))).toMatch(/cancel the task to stop me/);
    expect((await client.cancelTask({ id: task.id })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await remoteTasks(remote)).map((t) => t.status?.state)).toEqual([TaskState.TASK_STATE_CANCELED]);
  });

  it('a remote without streaming that refuses sends that do not wait gets a send that waits', async () => {
    const agents = [{ id: 'waits', handler: 'demo', backgroundExecution: false, capabilities: { streaming: false } }];
    const remote = await startRemote({ agents });
    const gateway = await startGateway({ url: `${remote.url}/agents/waits` });
    const client = await connect(gateway, 'remote', 'jsonrpc');
    const task = taskOf(await client.sendMessage({ message: textMessage('waiting caller') }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task)).toBe('Echo: waiting caller');
  });

  it('refuses bad settings at startup, naming the setting', async () => {
    const start = (settings: Record<string, unknown>) =>
      startExecutor({ host: '127.0.0.1', port: 0, grpcPort: false, agents: [{ id: 'r', handler: 'a2a-remote', settings }] }, { logger: silentLogger, env: {} });
    await expect(start({})).rejects.toThrow(/agents\[0\]\.settings\.url is required/);
    await expect(start({ url: 'ftp://x' })).rejects.toThrow(/url must be an absolute http\(s\) URL/);
    await expect(start({ url: 'http://x', binding: 'websocket' })).rejects.toThrow(/binding must be one of jsonrpc, rest, grpc/);
  });

  it("a remote that refuses the gateway's call fails the task with the remote's error", async () => {
    const remote = await startRemote();
    const gateway = await startGateway(remote);
    const client = await connect(gateway, 'no-key', 'jsonrpc');
    const task = taskOf(await client.sendMessage({ message: textMessage('let me in') }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(statusText(task)).toMatch(new RegExp(`^The remote agent at ${remote.url.replace(/[.]/g, '\\.')} failed: .*`));
    expect(await remoteTasks(remote)).toEqual([]);
  });
});

describe('executor: the a2a-remote handler fronting our server offering only A2A v0.3 JSON-RPC', () => {
  it('the gateway reaches it with v0.3 methods; a v1.0 call is refused there', async () => {
    const handler = new RequestHandler({ card: testAgentCard(), executor: createDemoAgent({ chunkDelayMs: 0 }), logger: silentLogger });
    const remote = closedAfterwards(await startV03OnlyServer(handler));
    const gateway = await startGateway(remote);
    const client = await connect(gateway, 'remote', 'grpc');
    const stream = client.sendStreamingMessage({ message: textMessage('hello v0.3') });
    const events = await collectStream(stream);
    const last = events.at(-1)?.event.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(remote.methods).toEqual(['message/stream']);
    // The front refuses a v1.0 client.
    const v1 = await fetch(remote.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }),
    });
    expect(((await v1.json()) as { error?: { code: number } }).error?.code).toBe(-32601);
  });
});

describe('executor: the a2a-remote handler fronting an A2A v0.3 server (the official SDK 0.3.14)', () => {
  /** The bindings of the gateway every interop case runs over. */
  const GATEWAY_BINDINGS = ['grpc', 'websocket'] as const;

  it('the v0.3 server is the official SDK 0.3.14', () => {
    const manifest = path.join(path.dirname(require.resolve('a2a-sdk-v03')), '..', 'package.json');
    expect(JSON.parse(readFileSync(manifest, 'utf8'))).toMatchObject({ name: '@a2a-js/sdk', version: '0.3.14' });
  });

  it.each(GATEWAY_BINDINGS.flatMap((binding) => (['JSONRPC', 'HTTP+JSON', 'GRPC'] as const).map((preferred) => [binding, preferred] as const)))(
    "a send to the gateway over %s: the task of the v0.3 agent (card preferring %s) completes with the agent's artifacts",
    async (binding, preferred) => {
      const sdk = closedAfterwards(await startSdkV03Server(preferred));
      const gateway = await startGateway(sdk);
      const client = await connect(gateway, 'remote', binding);
      const task = taskOf(await client.sendMessage({ message: textMessage('steps 2') }));
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(task.artifacts.map((a) => a.name)).toEqual(['chunk-0', 'chunk-1']);
      expect(artifactText(task)).toBe('chunk 0chunk 1');
    },
  );

  it.each(GATEWAY_BINDINGS)("a streaming send to the gateway over %s yields the v0.3 agent's events in order, ending completed", async (binding) => {
    const sdk = closedAfterwards(await startSdkV03Server());
    const gateway = await startGateway(sdk);
    const client = await connect(gateway, 'remote', binding);
    const stream = client.sendStreamingMessage({ message: textMessage('steps 2') });
    const events = await collectStream(stream);
    expect(stream.end).toBe('terminal');
    const summary = events.map(({ event }) => {
      const payload = event.payload;
      if (payload?.$case === 'task') return ['task', payload.value.status?.state];
      if (payload?.$case === 'statusUpdate') return ['status', payload.value.status?.state];
      if (payload?.$case === 'artifactUpdate') return ['artifact', payload.value.artifact?.name];
      return [payload?.$case];
    });
    expect(summary).toEqual([
      ['task', TaskState.TASK_STATE_SUBMITTED],
      ['status', TaskState.TASK_STATE_WORKING],
      ['artifact', 'chunk-0'],
      ['artifact', 'chunk-1'],
      ['status', TaskState.TASK_STATE_COMPLETED],
    ]);
    // Every event is about the gateway's task.
    for (const { event } of events) {
      const payload = event.payload;
      const taskId = payload?.$case === 'task' ? payload.value.id : payload?.$case === 'message' ? undefined : payload?.value.taskId;
      expect(taskId).toBe(stream.taskId);
    }
  });

  it("the v0.3 agent's Message answer is the gateway's Message answer", async () => {
    const sdk = closedAfterwards(await startSdkV03Server());
    const gateway = await startGateway(sdk);
    const client = await connect(gateway, 'remote', 'jsonrpc');
    const response = await client.sendMessage({ message: textMessage('echo over there') });
    expect(response.payload?.$case).toBe('message');
    const message = response.payload?.$case === 'message' ? response.payload.value : undefined;
    expect(message?.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : ''))).toEqual(['echo over there']);
  });

  it.each(GATEWAY_BINDINGS)('input-required on the v0.3 agent through the gateway over %s, then the follow-up completes it', async (binding) => {
    const sdk = closedAfterwards(await startSdkV03Server());
    const gateway = await startGateway(sdk);
    const client = await connect(gateway, 'remote', binding);
    const first = taskOf(await client.sendMessage({ message: textMessage('ask') }));
    expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(first)).toBe('what next?');
    const second = taskOf(await client.sendMessage({ message: textMessage('more', { taskId: first.id }) }));
    expect(second.id).toBe(first.id);
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(second.artifacts.map((a) => [a.name, artifactText({ ...second, artifacts: [a] })])).toEqual([['answer', 'got more']]);
  });

  it.each(GATEWAY_BINDINGS)('a cancel over %s of our streaming task cancels the v0.3 task', async (binding) => {
    const sdk = closedAfterwards(await startSdkV03Server());
    const gateway = await startGateway(sdk);
    const client = await connect(gateway, 'remote', binding);
    const stream = client.sendStreamingMessage({ message: textMessage('hang') });
    let canceled: Task | undefined;
    const events = await collectStream(stream, async ({ event }) => {
      if (event.payload?.$case === 'statusUpdate' && event.payload.value.status?.state === TaskState.TASK_STATE_WORKING && !canceled) {
        canceled = await client.cancelTask({ id: stream.taskId! });
      }
    });
    expect(canceled?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const last = events.at(-1)?.event.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    // The v0.3 agent was asked to cancel its task, once.
    await waitFor(() => sdk.canceledTaskIds.length > 0, { what: 'the v0.3 task canceled' });
    expect(sdk.canceledTaskIds).toHaveLength(1);
  });
});
