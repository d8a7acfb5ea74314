/** Test servers for the client: one RequestHandler served over JSON-RPC, REST and gRPC at once. */
import { RequestHandler, silentLogger, type RequestHandlerOptions } from '@a2a-polyglot/core';
import { Gates, scriptedAgent, testAgentCard } from '@a2a-polyglot/testing';
import { startGrpcServer, type RunningGrpcServer } from '@a2a-polyglot/grpc';
import type { AgentCard, TaskState } from '@a2a-polyglot/model';
import { startA2AServer, type RunningA2AServer } from '@a2a-polyglot/server';
import { grpcTransportFactory } from '../src/grpc.js';
import { Client, GRPC_BINDING, type BindingKey, type ClientEvent } from '../src/index.js';

/** The shared test card (streaming and push on); interfaces are filled in by the server per request. */
export function testCard(overrides: Partial<AgentCard> = {}): AgentCard {
  return testAgentCard({
    name: 'client-test',
    description: 'scripted agent for the client tests',
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true, extensions: [] },
    ...overrides,
  });
}

/** The gates and the one scripted agent of the tests (its commands: see `scriptedAgent` in @a2a-polyglot/testing). */
export { Gates, scriptedAgent } from '@a2a-polyglot/testing';

/** One handler on HTTP (JSON-RPC + REST) and gRPC; the card lists all three interfaces. */
export interface TestAgent {
  readonly handler: RequestHandler;
  readonly http: RunningA2AServer;
  readonly grpc: RunningGrpcServer;
  readonly gates: Gates;
  /** Base URL for card discovery, e.g. http://127.0.0.1:1234 */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the scripted agent on 127.0.0.1, ports 0. `grpcCardUrl` overrides the card's gRPC address (a proxy). */
export async function startTestAgent(
  options: { card?: Partial<AgentCard>; handler?: Partial<RequestHandlerOptions>; grpcCardUrl?: () => string | undefined } = {},
): Promise<TestAgent> {
  const gates = new Gates();
  const handler = new RequestHandler({
    card: testCard(options.card),
    executor: scriptedAgent(gates),
    logger: silentLogger,
    allowPrivateWebhooks: true,
    extendedCard: () => testCard({ name: 'client-test (extended)' }),
    ...options.handler,
  });
  const grpc = await startGrpcServer({ handler, host: '127.0.0.1', port: 0, logger: silentLogger, session: false });
  const http = await startA2AServer({
    handler,
    host: '127.0.0.1',
    port: 0,
    logger: silentLogger,
    sseHeartbeatMs: 0,
    extraInterfaces: () => [{ url: options.grpcCardUrl?.() ?? grpc.url, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: '' }],
  });
  return {
    handler,
    http,
    grpc,
    gates,
    url: http.url,
    async close() {
      await http.close();
      await grpc.close(500);
      await handler.shutdown(0);
    },
  };
}

/** The state of the last event, when it is a Task or a status update: where a stream left the task. */
export function lastState(events: readonly ClientEvent[]): TaskState | undefined {
  const last = events.at(-1)?.event.payload;
  return last?.$case === 'statusUpdate' || last?.$case === 'task' ? last.value.status?.state : undefined;
}

/** A client of an SDK server for the interop tests: one binding (gRPC registered), bounded calls, quick resumes. */
export function connectInterop(url: string, binding: BindingKey): Promise<Client> {
  return Client.connect(url, {
    bindings: [binding],
    transports: { [GRPC_BINDING]: grpcTransportFactory },
    timeoutMs: 5000,
    resume: { initialDelayMs: 20, maxDelayMs: 100 },
  });
}

/**
 * Plays a stream and cuts its connection once, after the second event (`cut` drops it, e.g. a
 * TCP proxy's `cutAll`, and lets the agent go on while the client is away): what the resume
 * tests against servers that number no events check.
 */
export async function collectWithCut(stream: AsyncIterable<ClientEvent>, cut: () => void): Promise<ClientEvent[]> {
  const events: ClientEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    if (events.length === 2) cut();
  }
  return events;
}

/** Artifact names as streamed (in order), and all seen, counting Task snapshots after the first event. */
export function artifactNames(events: readonly ClientEvent[]): { streamed: string[]; all: string[] } {
  const streamed = events.flatMap((e) => (e.event.payload?.$case === 'artifactUpdate' ? [e.event.payload.value.artifact!.name] : []));
  const snapshots = events.slice(1).flatMap((e) => (e.event.payload?.$case === 'task' ? e.event.payload.value.artifacts.map((a) => a.name) : []));
  return { streamed, all: [...new Set([...streamed, ...snapshots])].sort() };
}

/** Collects an async iterable (bounded by the jest timeout). */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

export { waitFor } from '@a2a-polyglot/testing';
