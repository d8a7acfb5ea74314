/**
 * Interop: the official A2A JavaScript SDK (@a2a-js/sdk 1.3.0, exact) pointed at OUR
 * executor's card with only its gRPC transport: it must resolve the card over HTTP, find the
 * GRPC interface there, connect to the executor's gRPC listener, send and stream.
 *
 * Loading notes: see interop-official-client.test.ts (ESM types with `resolution-mode`, CJS
 * build via `require`, `jose` stubbed because jest cannot load it and no test verifies card
 * signatures).
 */
import type * as SdkClient from '@a2a-js/sdk/client' with { 'resolution-mode': 'import' };
import type * as SdkGrpc from '@a2a-js/sdk/client/grpc' with { 'resolution-mode': 'import' };
import type * as Sdk from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { silentLogger } from '@a2a-polyglot/core';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { collectStream } from './helpers.js';
import { sdkRequest, textOf } from './interop-official-sdk.js';

jest.mock('jose', () => ({}));
const { ClientFactory } = require('@a2a-js/sdk/client') as typeof SdkClient;
const { GrpcTransportFactory } = require('@a2a-js/sdk/client/grpc') as typeof SdkGrpc;
const { TaskState } = require('@a2a-js/sdk') as typeof Sdk;



let running: RunningExecutor;
let client: SdkClient.Client;
beforeAll(async () => {
  running = await startExecutor({ host: '127.0.0.1', port: 0, grpcPort: 0, demo: { chunkDelayMs: 5 }, shutdownGraceMs: 100 }, { logger: silentLogger });
  // Only the gRPC transport: the factory can succeed only through the card's GRPC interface.
  const factory = new ClientFactory({ transports: [new GrpcTransportFactory()] });
  client = await factory.createFromUrl(running.url);
});
afterAll(() => running.close());

describe('official @a2a-js/sdk 1.3.0 client, gRPC transport only, pointed at our card', () => {
  it('resolves the card and picks the GRPC interface at the executor gRPC port', async () => {
    expect(client.transport.protocolName).toBe('GRPC');
    const card = await client.getAgentCard();
    expect(card.supportedInterfaces.find((i) => i.protocolBinding === 'GRPC')?.url).toBe(`127.0.0.1:${running.grpc!.port}`);
  });

  it('sendMessage returns the completed task', async () => {
    const result = (await client.sendMessage(sdkRequest('hello over sdk grpc'))) as Sdk.Task;
    expect(result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(result.artifacts.map((a) => textOf(a.parts)).join('')).toBe('Echo: hello over sdk grpc');
  });

  it('sendMessageStream delivers task, working, ordered chunks, completed', async () => {
    const events = await collectStream(client.sendMessageStream(sdkRequest('one two three four five')));
    expect(events[0]!.payload?.$case).toBe('task');
    const states = events.flatMap((e) => (e.payload?.$case === 'statusUpdate' ? [e.payload.value.status?.state] : []));
    expect(states).toEqual([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED]);
    const chunks = events.flatMap((e) => (e.payload?.$case === 'artifactUpdate' ? [textOf(e.payload.value.artifact?.parts)] : []));
    expect(chunks.join('')).toBe('Echo: one two three four five');
  });
});
