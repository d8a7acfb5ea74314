/**
 * Interop: our client against the official TypeScript SDK's server (@a2a-js/sdk 1.3.0, exact)
 * over JSON-RPC, HTTP+JSON and gRPC: send, stream, get, list, cancel, subscribe, and a cut
 * stream resumed against a server that does not number its events.
 *
 * Loading notes (SDK packaging, worked around here): its type declarations are ESM, so they
 * are imported with `resolution-mode: "import"` and the CommonJS build is `require`d; that
 * build requires `jose` (ESM-only, used for card signatures, which these tests never reach),
 * which jest's CommonJS runtime cannot load, so it is stubbed.
 */
import type * as SdkServerModule from '@a2a-js/sdk/server' with { 'resolution-mode': 'import' };
import type * as SdkExpressModule from '@a2a-js/sdk/server/express' with { 'resolution-mode': 'import' };
import type * as SdkGrpcModule from '@a2a-js/sdk/server/grpc' with { 'resolution-mode': 'import' };
import type * as SdkModule from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { TaskState, type Task } from '@a2a-polyglot/model';
import { testAgentCard } from '@a2a-polyglot/testing';
import { Server as GrpcServer } from '@grpc/grpc-js';
import { type Client, textMessage, type BindingKey, type ClientEvent } from '../src/index.js';
import { artifactNames, collect, collectWithCut, connectInterop, lastState } from './helpers.js';
import { listenBehindProxies } from './sdk-listeners.js';
import type { TcpProxy } from './tcp-proxy.js';

jest.mock('jose', () => ({}));
const sdk = require('@a2a-js/sdk') as typeof SdkModule;
const { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } = require('@a2a-js/sdk/server') as typeof SdkServerModule;
const { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } = require('@a2a-js/sdk/server/express') as typeof SdkExpressModule;
const sdkGrpc = require('@a2a-js/sdk/server/grpc') as typeof SdkGrpcModule;
const express = require('express') as typeof import('express');

type SdkBus = Parameters<SdkServerModule.AgentExecutor['execute']>[1];
type SdkContext = Parameters<SdkServerModule.AgentExecutor['execute']>[0];

const now = () => new Date().toISOString();
const gates = new Map<string, () => void>();
const gate = (key: string) => new Promise<void>((resolve) => gates.set(key, resolve));
const running = new Map<string, () => void>();

/** The SDK-side scripted agent: `steps N`, `echo X`, `hang`, `gate K N`. */
const sdkAgent: SdkServerModule.AgentExecutor = {
  async execute(ctx: SdkContext, bus: SdkBus) {
    const text = ctx.userMessage.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
    const [command = '', ...args] = text.trim().split(/\s+/);
    const { taskId, contextId } = ctx;
    const status = (state: SdkModule.TaskState) =>
      AgentEvent.statusUpdate({ taskId, contextId, status: { state, message: undefined, timestamp: now() }, metadata: undefined });
    const chunk = (i: number) =>
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: `a-${i}`,
          name: `chunk-${i}`,
          description: '',
          parts: [{ content: { $case: 'text', value: `chunk ${i}` }, metadata: undefined, filename: '', mediaType: '' }],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      });
    if (command === 'echo') {
      bus.publish(
        AgentEvent.message({
          messageId: `m-${Date.now()}`,
          contextId,
          taskId: '',
          role: sdk.Role.ROLE_AGENT,
          parts: [{ content: { $case: 'text', value: `echo ${args.join(' ')}` }, metadata: undefined, filename: '', mediaType: '' }],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        }),
      );
      return bus.finished();
    }
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { state: sdk.TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
        artifacts: [],
        history: [ctx.userMessage],
        metadata: undefined,
      }),
    );
    bus.publish(status(sdk.TaskState.TASK_STATE_WORKING));
    if (command === 'hang') {
      await new Promise<void>((resolve) => running.set(taskId, resolve));
      return;
    }
    if (command === 'gate') await gate(args[0] ?? '');
    const n = Number(command === 'gate' ? (args[1] ?? 1) : (args[0] ?? 1));
    for (let i = 0; i < n; i++) bus.publish(chunk(i));
    bus.publish(status(sdk.TaskState.TASK_STATE_COMPLETED));
    bus.finished();
  },
  async cancelTask(taskId: string, bus: SdkBus) {
    running.get(taskId)?.();
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: '',
        status: { state: sdk.TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: now() },
        metadata: undefined,
      }),
    );
    bus.finished();
  },
};

interface SdkServer {
  readonly url: string;
  /** In front of the HTTP server (JSON-RPC, REST). */
  readonly proxy: TcpProxy;
  /** In front of the gRPC server. */
  readonly grpcProxy: TcpProxy;
  close(): Promise<void>;
}

/** The SDK server: card + JSON-RPC + REST on express (behind a TCP proxy the tests can cut), gRPC on grpc-js. */
async function startSdkServer(): Promise<SdkServer> {
  let base = '';
  let grpcAddress = '';
  // Our test card in the SDK's own (same-shaped, separately generated) AgentCard type.
  const card = () =>
    testAgentCard({
      name: 'a2a-js sdk agent',
      description: 'the official SDK server',
      supportedInterfaces: [
        { url: `${base}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
        { url: `${base}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: '' },
        { url: grpcAddress, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: '' },
      ],
      capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    }) as unknown as SdkModule.AgentCard;
  const handler = new DefaultRequestHandler(card(), new InMemoryTaskStore(), sdkAgent);
  // The card's URLs are only known once listening: serve it through a provider.
  const provider = { getAgentCard: async () => card() };
  const app = express();
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: provider }));
  app.use('/rpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  app.use('/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  const grpc = new GrpcServer();
  grpc.addService(sdkGrpc.A2AService, sdkGrpc.grpcService({ requestHandler: handler, userBuilder: sdkGrpc.UserBuilder.noAuthentication }));
  const listeners = await listenBehindProxies(app, grpc);
  ({ base, grpcAddress } = listeners);
  return { url: base, proxy: listeners.proxy, grpcProxy: listeners.grpcProxy, close: () => listeners.close() };
}

const BINDINGS: BindingKey[] = ['jsonrpc', 'rest', 'grpc'];

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer();
});
afterAll(async () => {
  for (const release of running.values()) release();
  for (const open of gates.values()) open();
  await server?.close();
});

describe.each(BINDINGS)('our client → @a2a-js/sdk 1.3.0 server over %s', (binding) => {
  let client: Client;
  beforeAll(async () => {
    client = await connectInterop(server.url, binding);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('send: a completed task, and a direct message', async () => {
    const done = await client.sendMessage({ message: textMessage('steps 2') });
    const task = done.payload?.value as Task;
    expect(done.payload?.$case).toBe('task');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts.map((a) => a.name)).toEqual(['chunk-0', 'chunk-1']);
    const echo = await client.sendMessage({ message: textMessage('echo hi') });
    expect(echo.payload?.$case).toBe('message');
  });

  it('stream: task, status, artifacts, final status; ended, no seq (the SDK does not number events)', async () => {
    const stream = client.sendStreamingMessage({ message: textMessage('steps 2') });
    const events = await collect(stream);
    expect(events.map((e) => e.event.payload?.$case)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(events.every((e) => e.seq === undefined)).toBe(true);
    expect(stream.end).toBe('terminal');
  });

  it('get and list', async () => {
    const done = await client.sendMessage({ message: textMessage('steps 1') });
    const task = done.payload!.value as Task;
    expect((await client.getTask({ id: task.id })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const list = await client.listTasks({ contextId: task.contextId });
    expect(list.tasks.map((t) => t.id)).toEqual([task.id]);
  });

  it('cancel a running task', async () => {
    const started = await client.sendMessage({ message: textMessage('hang'), configuration: { returnImmediately: true } });
    const task = started.payload!.value as Task;
    const canceled = await client.cancelTask({ id: task.id });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('subscribe: snapshot first, then events to the end', async () => {
    const key = `sub-${binding}`;
    const started = await client.sendMessage({ message: textMessage(`gate ${key} 2`), configuration: { returnImmediately: true } });
    const task = started.payload!.value as Task;
    const events: ClientEvent[] = [];
    for await (const event of client.subscribeToTask({ id: task.id })) {
      events.push(event);
      if (events.length === 1) gates.get(key)?.();
    }
    expect(events[0]!.event.payload?.$case).toBe('task');
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('errors: TaskNotFound as A2AError', async () => {
    const error = await client.getTask({ id: 'no-such-task' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AError);
    expect((error as A2AError).code).toBe(A2AErrorCode.TaskNotFound);
  });
});

describe.each(BINDINGS)('a cut stream against the SDK server (%s): resumed from the snapshot', (binding) => {
  it('resubscribes without a resume point; every artifact arrives once, as an event or in the snapshot after the cut', async () => {
    const client = await connectInterop(server.url, binding);
    const key = `cut-${binding}`;
    const stream = client.sendStreamingMessage({ message: textMessage(`gate ${key} 3`) });
    const events = await collectWithCut(stream, () => {
      (binding === 'grpc' ? server.grpcProxy : server.proxy).cutAll();
      gates.get(key)?.(); // chunks are produced while the client is away
    });
    expect(stream.resumes).toBe(1);
    expect(stream.end).toBe('terminal');
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
    const { streamed, all } = artifactNames(events);
    expect(new Set(streamed).size).toBe(streamed.length);
    expect(all).toEqual(['chunk-0', 'chunk-1', 'chunk-2']);
    await client.close();
  });
});
