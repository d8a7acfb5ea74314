/**
 * The official TypeScript SDK's A2A v0.3 server (@a2a-js/sdk 0.3.14, installed as
 * `a2a-sdk-v03`) with a tiny scripted agent, for interop tests of our client and CLI against a
 * real v0.3 peer: a v0.3 card (top-level `url`, `preferredTransport`, `additionalInterfaces`),
 * JSON-RPC and REST on express, gRPC (`a2a.v1.A2AService`) on grpc-js, each behind a TCP proxy
 * the tests can cut.
 *
 * Loading notes: the SDK's type declarations are ESM, so they are imported with
 * `resolution-mode: "import"`. Its CommonJS entries each bundle their own copy of the SDK's
 * A2AError class, so an error thrown by the request handler fails the `instanceof` check of the
 * express or gRPC entry and goes out as -32603 instead of its code (TaskNotFound, ...). The
 * ES-module build shares one copy; jest compiles it to CommonJS (see jest.config.js), so it is
 * `require`d by file here.
 *
 * The agent, by the first word of the user's text:
 * - `echo X…`: answers with a Message `echo X…`, no task;
 * - `steps N`: a task, working, N artifacts `chunk-i`, completed;
 * - `ask`: a task that stops in input-required (`what next?`); the follow-up message
 *   completes it with an artifact `got <text>`;
 * - `hang`: a task that works until canceled;
 * - `gate K N`: like `steps N`, after the test opens gate K.
 */
import type * as SdkServerModule from 'a2a-sdk-v03/server' with { 'resolution-mode': 'import' };
import type * as SdkExpressModule from 'a2a-sdk-v03/server/express' with { 'resolution-mode': 'import' };
import type * as SdkGrpcModule from 'a2a-sdk-v03/server/grpc' with { 'resolution-mode': 'import' };
import type * as SdkModule from 'a2a-sdk-v03' with { 'resolution-mode': 'import' };
import { Server as GrpcServer } from '@grpc/grpc-js';
import path from 'node:path';
import { listenBehindProxies } from './sdk-listeners.js';
import type { TcpProxy } from './tcp-proxy.js';

/** The SDK's `dist/` (its package exports name the entries, not the directory). */
const dist = path.dirname(require.resolve('a2a-sdk-v03'));
const { DefaultRequestHandler, InMemoryTaskStore } = require(path.join(dist, 'server/index.js')) as typeof SdkServerModule;
const { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } = require(path.join(dist, 'server/express/index.js')) as typeof SdkExpressModule;
const sdkGrpc = require(path.join(dist, 'server/grpc/index.js')) as typeof SdkGrpcModule;
const express = require('express') as typeof import('express');

type SdkBus = Parameters<SdkServerModule.AgentExecutor['execute']>[1];
type SdkContext = Parameters<SdkServerModule.AgentExecutor['execute']>[0];
type V03State = SdkModule.TaskState;

/** A running SDK v0.3 server. */
export interface SdkV03Server {
  /** Base URL: the card is at `{url}/.well-known/agent-card.json`. */
  readonly url: string;
  /** The card's top-level `url` (JSON-RPC). */
  readonly rpcUrl: string;
  readonly restUrl: string;
  /** `host:port` of the gRPC server. */
  readonly grpcAddress: string;
  /** In front of the HTTP server (JSON-RPC, REST): the tests can cut its connections. */
  readonly proxy: TcpProxy;
  /** In front of the gRPC server. */
  readonly grpcProxy: TcpProxy;
  /** Opens gate `key` (see the `gate` command). */
  openGate(key: string): void;
  /** The ids of the tasks the agent was asked to cancel, in order (what a proxy in front did shows here). */
  readonly canceledTaskIds: readonly string[];
  close(): Promise<void>;
}

/** Which transport the card prefers (`url` + `preferredTransport`); the others go to `additionalInterfaces`. */
export type V03Transport = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';

const now = () => new Date().toISOString();

/** Starts the SDK server on loopback, its card preferring `preferred` (default JSON-RPC). */
export async function startSdkV03Server(preferred: V03Transport = 'JSONRPC'): Promise<SdkV03Server> {
  const gates = new Map<string, { promise: Promise<void>; open: () => void }>();
  const gate = (key: string) => {
    if (!gates.has(key)) {
      let open = () => {};
      const promise = new Promise<void>((resolve) => (open = resolve));
      gates.set(key, { promise, open });
    }
    return gates.get(key)!;
  };
  const running = new Map<string, () => void>();
  const canceledTaskIds: string[] = [];
  const agent = scriptedAgent(gate, running, canceledTaskIds);

  let base = '';
  let grpcAddress = '';
  const card = (): SdkModule.AgentCard => {
    const urls: Record<V03Transport, string> = { JSONRPC: `${base}/rpc`, 'HTTP+JSON': `${base}/rest`, GRPC: grpcAddress };
    return {
      name: 'a2a-js sdk 0.3 agent',
      description: 'the official SDK server, A2A v0.3',
      protocolVersion: '0.3.0',
      version: '1.0.0',
      url: urls[preferred],
      preferredTransport: preferred,
      additionalInterfaces: (Object.keys(urls) as V03Transport[]).map((transport) => ({ url: urls[transport], transport })),
      capabilities: { streaming: true, pushNotifications: false },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    };
  };
  const handler = new DefaultRequestHandler(card(), new InMemoryTaskStore(), agent);
  const app = express();
  // The card's URLs are only known once listening: serve it through a provider.
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: async () => card() }));
  app.use('/rpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  app.use('/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  const grpc = new GrpcServer();
  grpc.addService(sdkGrpc.A2AService, sdkGrpc.grpcService({ requestHandler: handler, userBuilder: sdkGrpc.UserBuilder.noAuthentication }));
  const listeners = await listenBehindProxies(app, grpc);
  ({ base, grpcAddress } = listeners);
  return {
    url: base,
    rpcUrl: `${base}/rpc`,
    restUrl: `${base}/rest`,
    grpcAddress,
    proxy: listeners.proxy,
    grpcProxy: listeners.grpcProxy,
    openGate: (key) => gate(key).open(),
    canceledTaskIds,
    async close() {
      for (const release of running.values()) release();
      for (const g of gates.values()) g.open();
      await listeners.close();
    },
  };
}

function scriptedAgent(
  gate: (key: string) => { promise: Promise<void> },
  running: Map<string, () => void>,
  canceledTaskIds: string[],
): SdkServerModule.AgentExecutor {
  return {
    async execute(ctx: SdkContext, bus: SdkBus) {
      const text = ctx.userMessage.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
      const { taskId, contextId } = ctx;
      const status = (state: V03State, final: boolean, reply?: string) =>
        bus.publish({
          kind: 'status-update',
          taskId,
          contextId,
          final,
          status: { state, timestamp: now(), message: reply === undefined ? undefined : agentMessage(reply, taskId, contextId) },
        });
      if (ctx.task?.status.state === 'input-required') {
        bus.publish({
          kind: 'artifact-update',
          taskId,
          contextId,
          artifact: { artifactId: 'answer', name: 'answer', parts: [{ kind: 'text', text: `got ${text}` }] },
          lastChunk: true,
        });
        status('completed', true);
        return bus.finished();
      }
      const [command = '', ...args] = text.trim().split(/\s+/);
      if (command === 'echo') {
        bus.publish(agentMessage(`echo ${args.join(' ')}`, undefined, contextId));
        return bus.finished();
      }
      bus.publish({ kind: 'task', id: taskId, contextId, status: { state: 'submitted', timestamp: now() }, history: [ctx.userMessage], artifacts: [] });
      status('working', false);
      if (command === 'ask') {
        status('input-required', true, 'what next?');
        return bus.finished();
      }
      if (command === 'hang') {
        await new Promise<void>((resolve) => running.set(taskId, resolve));
        return;
      }
      if (command === 'gate') await gate(args[0] ?? '').promise;
      const n = Number(command === 'gate' ? (args[1] ?? 1) : (args[0] ?? 1));
      for (let i = 0; i < n; i++) {
        bus.publish({
          kind: 'artifact-update',
          taskId,
          contextId,
          artifact: { artifactId: `a-${i}`, name: `chunk-${i}`, parts: [{ kind: 'text', text: `chunk ${i}` }] },
          lastChunk: true,
        });
      }
      status('completed', true);
      bus.finished();
    },
    async cancelTask(taskId: string, bus: SdkBus) {
      canceledTaskIds.push(taskId);
      running.get(taskId)?.();
      running.delete(taskId);
      bus.publish({ kind: 'status-update', taskId, contextId: '', final: true, status: { state: 'canceled', timestamp: now() } });
      bus.finished();
    },
  };
}

function agentMessage(text: string, taskId: string | undefined, contextId: string): SdkModule.Message {
  return {
    kind: 'message',
    messageId: `m-${Date.now()}-${Math.random().toString(36).slice(2)}`,
    role: 'agent',
    parts: [{ kind: 'text', text }],
    taskId,
    contextId,
  };
}
