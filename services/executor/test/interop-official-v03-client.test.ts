/**
 * Interop with the official A2A JavaScript SDK v0.3 client (@a2a-js/sdk 0.3.14, installed
 * under the alias `a2a-sdk-v03`) over JSON-RPC, against the real service with its default
 * configuration: the client sends no `A2A-Version`, calls `message/send`-style methods and
 * reads the card's top-level `url`, so this proves the v0.3 codec, the method-name routing and
 * the merged default card together.
 *
 * Loading: as for the 1.3.0 SDK (interop-official-client.test.ts), types are imported with
 * `resolution-mode: "import"` and the CJS build is `require`d; the 0.3.14 client bundle needs
 * no `jose` stub.
 */
import type * as V03Client from 'a2a-sdk-v03/client' with { 'resolution-mode': 'import' };
import type * as V03 from 'a2a-sdk-v03' with { 'resolution-mode': 'import' };
import { silentLogger } from '@a2a-polyglot/core';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { collectStream } from './helpers.js';

const { A2AClient, ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, TaskNotCancelableError, TaskNotFoundError } =
  require('a2a-sdk-v03/client') as typeof V03Client;

type Task = V03.Task;
type StreamEvent = V03.Message | V03.Task | V03.TaskStatusUpdateEvent | V03.TaskArtifactUpdateEvent;

/** Requests the SDK sent, with their headers: to check what a v0.3 client really sends. */
interface Sent {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

function recordingFetch(log: Sent[]): typeof fetch {
  return async (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    log.push({ method: init?.method ?? 'GET', url, headers, body: typeof init?.body === 'string' ? init.body : undefined });
    return fetch(input, init);
  };
}

function message(text: string, task?: { taskId: string; contextId: string }): V03.Message {
  return { kind: 'message', role: 'user', messageId: crypto.randomUUID(), parts: [{ kind: 'text', text }], ...task };
}

const textOf = (parts: ReadonlyArray<V03.Part> | undefined) => (parts ?? []).map((p) => (p.kind === 'text' ? p.text : '')).join('');
const artifactText = (task: Task) => (task.artifacts ?? []).map((a) => textOf(a.parts)).join('');
const stateOf = (e: StreamEvent) => (e.kind === 'task' || e.kind === 'status-update' ? e.status.state : undefined);

let running: RunningExecutor;
beforeAll(async () => {
  running = await startExecutor({ port: 0, demo: { chunkDelayMs: 5 }, shutdownGraceMs: 100 }, { logger: silentLogger });
});
afterAll(() => running.close());

describe('official @a2a-js/sdk 0.3.14 client over JSON-RPC (default configuration)', () => {
  const log: Sent[] = [];
  let client: V03Client.Client;

  beforeAll(async () => {
    const fetchImpl = recordingFetch(log);
    const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl })], cardResolver: new DefaultAgentCardResolver({ fetchImpl }) });
    client = await factory.createFromUrl(running.url);
  });

  it('ClientFactory resolves the card without A2A-Version and uses its top-level url', async () => {
    expect(log[0]).toMatchObject({ method: 'GET', url: `${running.url}/.well-known/agent-card.json` });
    expect(log[0]!.headers['a2a-version']).toBeUndefined();
    const card = await client.getAgentCard();
    expect(card).toMatchObject({ protocolVersion: '0.3.0', url: `${running.url}/a2a/rpc`, preferredTransport: 'JSONRPC', name: 'A2A Polyglot Demo Agent' });
    expect(card.additionalInterfaces).toEqual(expect.arrayContaining([{ url: `${running.url}/a2a/rpc`, transport: 'JSONRPC' }]));
  });

  it('sendMessage returns the completed task', async () => {
    const result = await client.sendMessage({ message: message('hello from the v0.3 client') });
    expect(result.kind).toBe('task');
    const task = result as Task;
    expect(task.status.state).toBe('completed');
    expect(artifactText(task)).toBe('Echo: hello from the v0.3 client');
    const sent = log.at(-1)!;
    expect(sent.url).toBe(`${running.url}/a2a/rpc`);
    expect(sent.headers['a2a-version']).toBeUndefined();
    expect(JSON.parse(sent.body!).method).toBe('message/send');
  });

  it('sendMessageStream delivers task, working, ordered chunks, completed with final', async () => {
    const events = await collectStream(client.sendMessageStream({ message: message('one two three four five six seven') }));
    expect(events[0]!.kind).toBe('task');
    expect(stateOf(events[1]!)).toBe('working');
    const last = events.at(-1)!;
    expect(last).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
    const chunks = events.flatMap((e) => (e.kind === 'artifact-update' ? [e] : []));
    expect(chunks.map((c) => textOf(c.artifact.parts))).toEqual(['Echo: one two ', 'three four five ', 'six seven']);
    expect(chunks.at(-1)!.lastChunk).toBe(true);
    expect(events.filter((e) => e.kind === 'status-update' && !e.final)).toHaveLength(1);
  });

  it('getTask returns the stored task; historyLength limits its history', async () => {
    const sent = (await client.sendMessage({ message: message('remember me') })) as Task;
    const task = await client.getTask({ id: sent.id });
    expect(task).toMatchObject({ kind: 'task', id: sent.id, status: { state: 'completed' } });
    expect(textOf(task.history?.[0]?.parts)).toBe('remember me');
    const short = await client.getTask({ id: sent.id, historyLength: 0 });
    expect(short.history ?? []).toEqual([]);
  });

  it('an unknown task is a TaskNotFoundError', async () => {
    await expect(client.getTask({ id: 'no-such-task' })).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it('input-required, then a follow-up on the same task completes it', async () => {
    const asked = (await client.sendMessage({ message: message('ask') })) as Task;
    expect(asked.status.state).toBe('input-required');
    expect(textOf(asked.status.message?.parts)).toContain('What should I echo back?');
    const done = (await client.sendMessage({ message: message('green', { taskId: asked.id, contextId: asked.contextId }) })) as Task;
    expect(done).toMatchObject({ id: asked.id, status: { state: 'completed' } });
    expect(artifactText(done)).toContain('green');
  });

  it('cancelTask cancels a running task, and a finished one is TaskNotCancelableError', async () => {
    const started = (await client.sendMessage({ message: message('slow'), configuration: { blocking: false } })) as Task;
    expect(['submitted', 'working']).toContain(started.status.state);
    const canceled = await client.cancelTask({ id: started.id });
    expect(canceled).toMatchObject({ id: started.id, status: { state: 'canceled' } });
    await expect(client.cancelTask({ id: started.id })).rejects.toBeInstanceOf(TaskNotCancelableError);
  });

  it('resubscribes to a running task: snapshot first, then its events until canceled', async () => {
    const started = (await client.sendMessage({ message: message('slow'), configuration: { blocking: false } })) as Task;
    const events = await collectStream(client.resubscribeTask({ id: started.id }), async (e, all) => {
      if (all.length === 2) await client.cancelTask({ id: started.id });
    });
    expect(events[0]).toMatchObject({ kind: 'task', id: started.id });
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'canceled' } });
  });

  it('push notification config set / get / list / delete (reads redact the secrets)', async () => {
    // An input-required task: no further events, so nothing is delivered to the example webhook.
    const task = (await client.sendMessage({ message: message('ask') })) as Task;
    const config = { id: 'hook-1', url: 'https://hooks.example.com/a2a', token: 'tok', authentication: { schemes: ['Bearer'], credentials: 'secret' } };
    const set = await client.setTaskPushNotificationConfig({ taskId: task.id, pushNotificationConfig: config });
    expect(set).toEqual({ taskId: task.id, pushNotificationConfig: config });
    // Reads answer the secrets redacted (the registering call got them back as sent).
    const redacted = { taskId: task.id, pushNotificationConfig: { ...config, token: '********', authentication: { schemes: ['Bearer'], credentials: '********' } } };
    const got = await client.getTaskPushNotificationConfig({ id: task.id, pushNotificationConfigId: 'hook-1' } as V03.TaskIdParams);
    expect(got).toEqual(redacted);
    const list = await client.listTaskPushNotificationConfig({ id: task.id });
    expect(list).toEqual([redacted]);
    await client.deleteTaskPushNotificationConfig({ id: task.id, pushNotificationConfigId: 'hook-1' });
    expect(await client.listTaskPushNotificationConfig({ id: task.id })).toEqual([]);
  });
});

describe('official @a2a-js/sdk 0.3.14 A2AClient (legacy entry point)', () => {
  it('A2AClient.fromCardUrl reads the card url and sends message/send', async () => {
    const client = await A2AClient.fromCardUrl(`${running.url}/.well-known/agent-card.json`);
    const response = await client.sendMessage({ message: message('hello legacy') });
    if ('error' in response) throw new Error(`unexpected error ${JSON.stringify(response.error)}`);
    expect(response.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    const stream: StreamEvent[] = [];
    for await (const event of client.sendMessageStream({ message: message('streamed legacy') })) stream.push(event);
    expect(stream.at(-1)).toMatchObject({ kind: 'status-update', final: true });
  });
});

describe('official @a2a-js/sdk 0.3.14 client against a service with API keys', () => {
  it('resolves the merged card, whose security schemes carry both forms, and calls with its key', async () => {
    const secured = await startExecutor({ port: 0, grpcPort: false, auth: { apiKeys: { 'key-1': 'alice' } }, shutdownGraceMs: 100 }, { logger: silentLogger });
    try {
      const withKey: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-api-key': 'key-1' } });
      const factory = new ClientFactory({
        transports: [new JsonRpcTransportFactory({ fetchImpl: withKey })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl: fetch }),
      });
      const client = await factory.createFromUrl(secured.url);
      const card = await client.getAgentCard();
      const types = Object.values(card.securitySchemes ?? {}).map((s) => s.type);
      expect(types.length).toBeGreaterThan(0);
      expect(types.every((t) => ['apiKey', 'http'].includes(t))).toBe(true);
      const result = await client.sendMessage({ message: message('hello with a key') });
      expect(result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    } finally {
      await secured.close();
    }
  });
});
