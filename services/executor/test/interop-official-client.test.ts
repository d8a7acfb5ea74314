/**
 * Interop with the official A2A JavaScript SDK client (@a2a-js/sdk 1.3.0, exact): card
 * resolution and every task operation over both HTTP bindings, against the real service.
 *
 * Loading notes (both are SDK packaging issues, worked around here, not in the SDK):
 * - Its `exports` map lists `types` (ESM .d.ts) before `require`, so a CommonJS TypeScript
 *   file cannot `import` it (TS1479). We type-import with `resolution-mode: "import"` and
 *   load the CJS build with `require`.
 * - Its CJS build `require`s `jose` (ESM-only; used for card signatures only), which jest's
 *   module runtime cannot load before Node 24.9. We stub `jose`; no test verifies signatures.
 */
import type * as SdkClient from '@a2a-js/sdk/client' with { 'resolution-mode': 'import' };
import type * as Sdk from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { silentLogger } from '@a2a-polyglot/core';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { collectStream } from './helpers.js';
import { sdkRequest, stateOf, textOf } from './interop-official-sdk.js';

jest.mock('jose', () => ({}));
const { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory } = require('@a2a-js/sdk/client') as typeof SdkClient;
const { TaskState } = require('@a2a-js/sdk') as typeof Sdk;

type Task = Sdk.Task;

/** One HTTP exchange as the SDK made it: enough to report an incompatibility precisely. */
interface Exchange {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  status?: number;
  contentType?: string;
  responseBody?: string;
}

/** A fetch that records every request (and non-streaming response body) the SDK sends. */
function recordingFetch(log: Exchange[]): typeof fetch {
  return async (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const exchange: Exchange = { method: init?.method ?? 'GET', url, headers, body: typeof init?.body === 'string' ? init.body : undefined };
    log.push(exchange);
    const res = await fetch(input, init);
    exchange.status = res.status;
    exchange.contentType = res.headers.get('content-type') ?? undefined;
    if (!exchange.contentType?.startsWith('text/event-stream')) exchange.responseBody = await res.clone().text();
    return res;
  };
}

/** Runs `fn`; on failure, rethrows with the HTTP exchanges it caused, so the report is exact. */
async function traced<T>(log: Exchange[], what: string, fn: () => Promise<T>): Promise<T> {
  const from = log.length;
  try {
    return await fn();
  } catch (error) {
    const exchanges = log
      .slice(from)
      .map(
        (e) =>
          `${e.method} ${e.url}\n  request headers: ${JSON.stringify(e.headers)}\n  request body: ${e.body ?? '(none)'}\n  → ${e.status} ${e.contentType ?? ''}\n  response body: ${e.responseBody ?? '(stream)'}`,
      );
    throw new Error(`${what} failed: ${(error as Error).message}\n${exchanges.join('\n')}`, { cause: error });
  }
}

const isTask = (r: Sdk.SendMessageResult): r is Task => 'status' in r && 'id' in r;
const artifactText = (task: Task) => task.artifacts.map((a) => textOf(a.parts)).join('');

let running: RunningExecutor;
beforeAll(async () => {
  running = await startExecutor({ port: 0, demo: { chunkDelayMs: 5 }, shutdownGraceMs: 100 }, { logger: silentLogger });
});
afterAll(() => running.close());

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('official @a2a-js/sdk client over %s', (binding) => {
  const log: Exchange[] = [];
  let client: SdkClient.Client;

  beforeAll(async () => {
    const fetchImpl = recordingFetch(log);
    const factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
      preferredTransports: [binding],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    });
    client = await traced(log, 'createFromUrl', () => factory.createFromUrl(running.url));
  });

  it('resolves the card from /.well-known/agent-card.json and picks the binding', async () => {
    expect(log[0]).toMatchObject({ method: 'GET', url: `${running.url}/.well-known/agent-card.json`, status: 200 });
    expect(client.transport.protocolName).toBe(binding);
    const card = await client.getAgentCard();
    expect(card.name).toBe('A2A Polyglot Demo Agent');
    expect(card.capabilities?.streaming).toBe(true);
    const urls = Object.fromEntries(card.supportedInterfaces.map((i) => [i.protocolBinding, i.url]));
    expect(urls).toMatchObject({ JSONRPC: `${running.url}/a2a/rpc`, 'HTTP+JSON': `${running.url}/a2a` });
  });

  it('sendMessage returns the completed task', async () => {
    const result = await traced(log, 'sendMessage', () => client.sendMessage(sdkRequest('hello from the official client')));
    expect(isTask(result)).toBe(true);
    const task = result as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task)).toBe('Echo: hello from the official client');
  });

  it('sendMessageStream delivers task, working, ordered chunks, completed', async () => {
    const events = await traced(log, 'sendMessageStream', () => collectStream(client.sendMessageStream(sdkRequest('one two three four five six seven'))));
    const kinds = events.map((e) => e.payload?.$case);
    expect(kinds[0]).toBe('task');
    expect(stateOf(events[1]!)).toBe(TaskState.TASK_STATE_WORKING);
    expect(stateOf(events[events.length - 1]!)).toBe(TaskState.TASK_STATE_COMPLETED);
    const chunks = events.flatMap((e) => (e.payload?.$case === 'artifactUpdate' ? [e.payload.value] : []));
    expect(chunks.map((c) => textOf(c.artifact?.parts))).toEqual(['Echo: one two ', 'three four five ', 'six seven']);
    expect(chunks.map((c) => [c.append, c.lastChunk])).toEqual([
      [false, false],
      [true, false],
      [true, true],
    ]);
    const taskId = (events[0]!.payload as { value: Task }).value.id;
    expect(events.every((e) => e.payload?.$case === 'task' || (e.payload?.value as { taskId?: string } | undefined)?.taskId === taskId)).toBe(true);
  });

  it('getTask returns the stored task with history; historyLength limits it', async () => {
    const sent = (await client.sendMessage(sdkRequest('remember me'))) as Task;
    const task = await traced(log, 'getTask', () => client.getTask({ tenant: '', id: sent.id, historyLength: undefined }));
    expect(task.id).toBe(sent.id);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(task.history[0]?.parts)).toBe('remember me');
    const short = await traced(log, 'getTask(historyLength=0)', () => client.getTask({ tenant: '', id: sent.id, historyLength: 0 }));
    expect(short.history).toEqual([]);
  });

  it('listTasks lists tasks, newest first, with paging fields', async () => {
    const sent = (await client.sendMessage(sdkRequest('list me'))) as Task;
    const page = await traced(log, 'listTasks', () =>
      client.listTasks({
        tenant: '',
        contextId: '',
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: 2,
        pageToken: '',
        historyLength: undefined,
        statusTimestampAfter: undefined,
        includeArtifacts: undefined,
      }),
    );
    expect(page.tasks.length).toBe(2);
    expect(page.tasks[0]!.id).toBe(sent.id);
    expect(page.pageSize).toBe(2);
    expect(page.totalSize).toBeGreaterThanOrEqual(3);
    expect(page.nextPageToken).not.toBe('');
    const filtered = await traced(log, 'listTasks(contextId)', () =>
      client.listTasks({
        tenant: '',
        contextId: sent.contextId,
        status: TaskState.TASK_STATE_COMPLETED,
        pageSize: undefined,
        pageToken: '',
        historyLength: undefined,
        statusTimestampAfter: undefined,
        includeArtifacts: true,
      }),
    );
    expect(filtered.tasks.map((t) => t.id)).toEqual([sent.id]);
    expect(artifactText(filtered.tasks[0]!)).toBe('Echo: list me');
  });

  it('input-required, then a follow-up on the same task completes it', async () => {
    const asked = (await traced(log, 'sendMessage(ask)', () => client.sendMessage(sdkRequest('ask')))) as Task;
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const done = (await traced(log, 'sendMessage(follow-up)', () => client.sendMessage(sdkRequest('green', { taskId: asked.id })))) as Task;
    expect(done.id).toBe(asked.id);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(done)).toBe('Echo: green');
  });

  it('a failing task streams to FAILED with the reason', async () => {
    const events = await traced(log, 'sendMessageStream(fail)', () => collectStream(client.sendMessageStream(sdkRequest('fail'))));
    const last = events[events.length - 1]!;
    expect(stateOf(last)).toBe(TaskState.TASK_STATE_FAILED);
    expect(last.payload?.$case === 'statusUpdate' && textOf(last.payload.value.status?.message?.parts)).toMatch(/failed on purpose/);
  });

  it('cancelTask stops a slow streaming task; the stream ends CANCELED', async () => {
    let canceled: Task | undefined;
    const events = await traced(log, 'sendMessageStream(slow) + cancelTask', () =>
      collectStream(client.sendMessageStream(sdkRequest('slow')), async (e, all) => {
        if (!canceled && all.filter((x) => x.payload?.$case === 'artifactUpdate').length === 2) {
          const id = (all[0]!.payload as { value: Task }).value.id;
          canceled = await client.cancelTask({ tenant: '', id, metadata: undefined });
        }
      }),
    );
    expect(canceled?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(stateOf(events[events.length - 1]!)).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('resubscribeTask (SubscribeToTask) re-attaches to a running task: snapshot first, then live events', async () => {
    const started = (await traced(log, 'sendMessage(slow, returnImmediately)', () => client.sendMessage(sdkRequest('slow', { returnImmediately: true })))) as Task;
    expect([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]).toContain(started.status?.state);
    let canceled = false;
    const events = await traced(log, 'resubscribeTask', () =>
      collectStream(client.resubscribeTask({ tenant: '', id: started.id }), async (_e, all) => {
        if (!canceled && all.filter((x) => x.payload?.$case === 'artifactUpdate').length === 2) {
          canceled = true;
          await client.cancelTask({ tenant: '', id: started.id, metadata: undefined });
        }
      }),
    );
    expect(events[0]!.payload?.$case).toBe('task');
    expect((events[0]!.payload as { value: Task }).value.id).toBe(started.id);
    expect(events.filter((e) => e.payload?.$case === 'artifactUpdate').length).toBeGreaterThanOrEqual(2);
    expect(stateOf(events[events.length - 1]!)).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('maps errors to the SDK error types (TaskNotFound, TaskNotCancelable)', async () => {
    const missing = await client.getTask({ tenant: '', id: 'no-such-task', historyLength: undefined }).catch((e: unknown) => e);
    expect((missing as Error).constructor.name).toMatch(/TaskNotFoundError$/);
    const done = (await client.sendMessage(sdkRequest('finished'))) as Task;
    const notCancelable = await client.cancelTask({ tenant: '', id: done.id, metadata: undefined }).catch((e: unknown) => e);
    expect((notCancelable as Error).constructor.name).toMatch(/TaskNotCancelableError$/);
  });

  it('sent A2A-Version: 1.0 on every request, including card discovery', () => {
    expect(log.length).toBeGreaterThan(10);
    const without = log.filter((e) => e.headers['a2a-version'] !== '1.0').map((e) => `${e.method} ${e.url} ${JSON.stringify(e.headers)}`);
    expect(without).toEqual([]);
  });
});
