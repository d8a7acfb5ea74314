/**
 * Interop: the official A2A JavaScript SDK 0.3.14 (installed as `a2a-sdk-v03`), a v0.3 client,
 * against OUR executor over its v0.3 gRPC service (`a2a.v1.A2AService`) and its v0.3 REST routes
 * (`/a2a/v1/…`): send, stream, get, cancel (running and finished), unknown task, multi-turn
 * input-required, push config set/get/list/delete, resubscribe to a running task.
 *
 * No configuration beyond the defaults: the SDK resolves the executor's served card (the
 * merged card: its v0.3 `additionalInterfaces` name the REST base and the gRPC address) and,
 * given only the transport under test, picks that interface itself.
 *
 * Loading notes: CJS build via `require` (jest runs CommonJS), ESM types with
 * `resolution-mode`; 0.3.14 does not import `jose`, so nothing is stubbed.
 */
import type * as SdkClient from 'a2a-sdk-v03/client' with { 'resolution-mode': 'import' };
import type * as SdkGrpc from 'a2a-sdk-v03/client/grpc' with { 'resolution-mode': 'import' };
import type * as Sdk from 'a2a-sdk-v03' with { 'resolution-mode': 'import' };
import { silentLogger } from '@a2a-polyglot/core';
import { DEMO_QUESTION } from '../src/demo-agent.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { collectStream } from './helpers.js';

const { ClientFactory, RestTransport, RestTransportFactory } = require('a2a-sdk-v03/client') as typeof SdkClient;
const { GrpcTransport, GrpcTransportFactory } = require('a2a-sdk-v03/client/grpc') as typeof SdkGrpc;

type Event = Sdk.Message | Sdk.Task | Sdk.TaskStatusUpdateEvent | Sdk.TaskArtifactUpdateEvent;

function params(text: string, extra: { taskId?: string; contextId?: string; blocking?: boolean } = {}): Sdk.MessageSendParams {
  const { blocking, ...ids } = extra;
  return {
    message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...ids },
    ...(blocking === undefined ? {} : { configuration: { blocking } }),
  };
}

const textOf = (parts: ReadonlyArray<Sdk.Part> | undefined) => (parts ?? []).map((p) => (p.kind === 'text' ? p.text : '')).join('');
const artifactText = (task: Sdk.Task) => (task.artifacts ?? []).map((a) => textOf(a.parts)).join('');

/**
 * The SDK error class a failed call was mapped to. By class name: the SDK's gRPC transport is a
 * separate bundle with its own copies of the error classes, so `instanceof` cannot be used.
 */
async function sdkErrorOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return (error as Error).constructor.name;
  }
  throw new Error('expected the call to fail');
}

let running: RunningExecutor;
beforeAll(async () => {
  running = await startExecutor(
    { host: '127.0.0.1', port: 0, grpcPort: 0, demo: { chunkDelayMs: 5 }, shutdownGraceMs: 100, push: { allowPrivateNetworks: true } },
    { logger: silentLogger },
  );
});
afterAll(() => running.close());

describe.each([
  ['GRPC', () => new GrpcTransportFactory()],
  ['HTTP+JSON', () => new RestTransportFactory()],
] as const)('official @a2a-js/sdk 0.3.14 client over v0.3 %s', (transport, factory) => {
  let client: SdkClient.Client;
  beforeAll(async () => {
    client = await new ClientFactory({ transports: [factory()] }).createFromUrl(running.url);
  });

  it('uses the transport under test', () => {
    expect(client.transport).toBeInstanceOf(transport === 'GRPC' ? GrpcTransport : RestTransport);
  });

  it('sendMessage returns the completed task; getTask reads it back with history', async () => {
    const task = (await client.sendMessage(params('hello over v0.3'))) as Sdk.Task;
    expect(task.kind).toBe('task');
    expect(task.status.state).toBe('completed');
    expect(artifactText(task)).toBe('Echo: hello over v0.3');
    const got = await client.getTask({ id: task.id, historyLength: 1 });
    expect(got.id).toBe(task.id);
    expect(got.status.state).toBe('completed');
    expect(got.history).toHaveLength(1);
  });

  it('sendMessageStream streams task, status and artifact events; the terminal status update is final', async () => {
    const events = await collectStream(client.sendMessageStream(params('stream me please now')));
    expect(events[0]?.kind).toBe('task');
    const updates = events.filter((e): e is Sdk.TaskStatusUpdateEvent => e.kind === 'status-update');
    expect(updates.at(-1)).toMatchObject({ final: true, status: { state: 'completed' } });
    expect(updates.slice(0, -1).every((u) => !u.final)).toBe(true);
    const chunks = events.filter((e): e is Sdk.TaskArtifactUpdateEvent => e.kind === 'artifact-update');
    expect(chunks.map((c) => textOf(c.artifact.parts)).join('')).toBe('Echo: stream me please now');
  });

  it('cancelTask cancels a running task; cancelling it again is TaskNotCancelableError', async () => {
    const task = (await client.sendMessage(params('slow', { blocking: false }))) as Sdk.Task;
    expect(['submitted', 'working']).toContain(task.status.state);
    const canceled = await client.cancelTask({ id: task.id });
    expect(canceled.status.state).toBe('canceled');
    expect(await sdkErrorOf(client.cancelTask({ id: task.id }))).toBe('TaskNotCancelableError');
  });

  it('an unknown task is TaskNotFoundError', async () => {
    expect(await sdkErrorOf(client.getTask({ id: 'no-such-task' }))).toBe('TaskNotFoundError');
    expect(await sdkErrorOf(client.cancelTask({ id: 'no-such-task' }))).toBe('TaskNotFoundError');
  });

  it('multi-turn: input-required, then the follow-up on the same task completes it', async () => {
    const asked = (await client.sendMessage(params('ask'))) as Sdk.Task;
    expect(asked.status.state).toBe('input-required');
    expect(textOf(asked.status.message?.parts)).toBe(DEMO_QUESTION);
    const done = (await client.sendMessage(params('blue', { taskId: asked.id, contextId: asked.contextId }))) as Sdk.Task;
    expect(done.id).toBe(asked.id);
    expect(done.status.state).toBe('completed');
    expect(artifactText(done)).toBe('Echo: blue');
  });

  it('push configs: set, get, list (secrets redacted), delete', async () => {
    const task = (await client.sendMessage(params('ask'))) as Sdk.Task;
    const config = { id: 'cfg-1', url: 'http://127.0.0.1:9/hook', token: 'tok', authentication: { schemes: ['Bearer'], credentials: 'secret' } };
    const set = await client.setTaskPushNotificationConfig({ taskId: task.id, pushNotificationConfig: config });
    expect(set).toEqual({ taskId: task.id, pushNotificationConfig: config });
    // The Client method is typed with TaskIdParams, but the transports read the config id too.
    const which = { id: task.id, pushNotificationConfigId: 'cfg-1' } as Sdk.TaskIdParams;
    // Reads answer the secrets redacted (the registering call got them back as sent).
    const redacted = { taskId: task.id, pushNotificationConfig: { ...config, token: '********', authentication: { schemes: ['Bearer'], credentials: '********' } } };
    expect(await client.getTaskPushNotificationConfig(which)).toEqual(redacted);
    expect(await client.listTaskPushNotificationConfig({ id: task.id })).toEqual([redacted]);
    await client.deleteTaskPushNotificationConfig({ id: task.id, pushNotificationConfigId: 'cfg-1' });
    expect(await client.listTaskPushNotificationConfig({ id: task.id })).toEqual([]);
  });

  it('resubscribeTask follows a running task until it is canceled', async () => {
    const task = (await client.sendMessage(params('slow', { blocking: false }))) as Sdk.Task;
    // Cancel once live ticks arrived (a condition, not a clock): the stream must then end.
    let canceling: Promise<unknown> | undefined;
    const events = await collectStream(client.resubscribeTask({ id: task.id }), (_e, all) => {
      if (!canceling && all.filter((e) => e.kind === 'artifact-update').length >= 2) canceling = client.cancelTask({ id: task.id });
    });
    await canceling;
    expect(events[0]).toMatchObject({ kind: 'task', id: task.id });
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'canceled' } });
  });
});
