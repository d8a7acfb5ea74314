import type * as GrpcJs from '@grpc/grpc-js';
import type { Server } from 'node:http';
import { createSdkBenchAgent, type SdkServerModule } from '../agents/sdk-agent.js';
import { LOOPBACK, type StartedServer } from './started-server.js';

type SdkExpressModule = typeof import('@a2a-js/sdk/server/express', { with: { 'resolution-mode': 'import' }});
type SdkGrpcModule = typeof import('@a2a-js/sdk/server/grpc', { with: { 'resolution-mode': 'import' }});
type SdkCard = ConstructorParameters<SdkServerModule['DefaultRequestHandler']>[0];
type ExpressFactory = typeof import('express');

/**
 * The official SDK (`@a2a-js/sdk` 1.3.0) the way its multi-transport sample serves an agent:
 * one `DefaultRequestHandler` with `InMemoryTaskStore`, mounted as JSON-RPC (`/a2a/rpc`) and
 * REST (`/a2a`) on express 5, and as `grpcService` on a grpc-js server.
 */
export async function startSdkServer(): Promise<StartedServer> {
  const sdk = require('@a2a-js/sdk/server') as SdkServerModule;
  const { jsonRpcHandler, restHandler, agentCardHandler, UserBuilder } = require('@a2a-js/sdk/server/express') as SdkExpressModule;
  const express = require('express') as ExpressFactory;

  const card = sdkCard();
  const handler = new sdk.DefaultRequestHandler(card, new sdk.InMemoryTaskStore(), createSdkBenchAgent(sdk));
  const app = express();
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use('/a2a/rpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  app.use('/a2a', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  const http = await new Promise<Server>((resolve, reject) => {
    const server = app.listen(0, LOOPBACK, (error?: Error) => (error ? reject(error) : resolve(server)));
  });
  http.keepAliveTimeout = 60_000;
  http.headersTimeout = 65_000;
  http.requestTimeout = 0;
  const address = http.address();
  const ports: Record<string, number> = { http: typeof address === 'object' && address ? address.port : 0 };
  const notes: string[] = [];

  try {
    const grpc = require('@grpc/grpc-js') as typeof GrpcJs;
    const { A2AService, grpcService, UserBuilder: GrpcUserBuilder } = require('@a2a-js/sdk/server/grpc') as SdkGrpcModule;
    const server = new grpc.Server();
    server.addService(
      A2AService as unknown as GrpcJs.ServiceDefinition,
      grpcService({ requestHandler: handler, userBuilder: GrpcUserBuilder.noAuthentication }),
    );
    ports.grpc = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`${LOOPBACK}:0`, grpc.ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port))),
    );
  } catch (error) {
    notes.push(`SDK gRPC unavailable: ${(error as Error).message.split('\n')[0]}`);
  }
  return { ports, notes };
}

function sdkCard(): SdkCard {
  return {
    name: 'SDK benchmark agent',
    description: 'Message, Task and streaming modes for the benchmark.',
    supportedInterfaces: [
      { url: 'http://127.0.0.1/a2a/rpc', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url: 'http://127.0.0.1/a2a', protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' },
      { url: '127.0.0.1', protocolBinding: 'GRPC', tenant: '', protocolVersion: '1.0' },
    ],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'bench',
        name: 'Benchmark',
        description: 'Benchmark modes',
        tags: ['bench'],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  } as SdkCard;
}
