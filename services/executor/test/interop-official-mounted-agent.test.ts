/**
 * No agent answers for another: the official A2A JavaScript SDKs, 1.3.0 (`@a2a-js/sdk`, a v1.0
 * client) and 0.3.14 (`a2a-sdk-v03`, a v0.3 client), resolve the card of `beta`, the
 * non-default agent of a two-agent executor, and follow each transport it offers them. Every
 * task must land on beta (readable under `/agents/beta`) and not on the default agent `alpha`
 * (not readable at the root). A transport the card does not offer must make the SDK refuse to
 * build a client, rather than connect somewhere else.
 *
 * Each generation reads the card the executor serves it by default (`merged`) and its own pure
 * card (`cardCompat` `1.0` or `0.3`). The WebSocket entry (no official SDK speaks it) is
 * followed by our own client in agents-all-bindings.test.ts.
 *
 * Loading notes: see interop-official-client.test.ts and interop-official-v03-grpc-rest.test.ts
 * (ESM types with `resolution-mode`, CJS builds via `require`, `jose` stubbed for 1.3.0).
 */
import type * as SdkClient from '@a2a-js/sdk/client' with { 'resolution-mode': 'import' };
import type * as SdkGrpc from '@a2a-js/sdk/client/grpc' with { 'resolution-mode': 'import' };
import type * as Sdk from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import type * as V03Client from 'a2a-sdk-v03/client' with { 'resolution-mode': 'import' };
import type * as V03Grpc from 'a2a-sdk-v03/client/grpc' with { 'resolution-mode': 'import' };
import type * as V03 from 'a2a-sdk-v03' with { 'resolution-mode': 'import' };
import { silentLogger } from '@a2a-polyglot/core';
import type { CardCompat } from '@a2a-polyglot/server';
import { WEBSOCKET_BINDING } from '@a2a-polyglot/client';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { json, V1 } from './helpers.js';

jest.mock('jose', () => ({}));
const v1 = require('@a2a-js/sdk/client') as typeof SdkClient;
const v1Grpc = require('@a2a-js/sdk/client/grpc') as typeof SdkGrpc;
const { Role } = require('@a2a-js/sdk') as typeof Sdk;
const v03 = require('a2a-sdk-v03/client') as typeof V03Client;
const v03Grpc = require('a2a-sdk-v03/client/grpc') as typeof V03Grpc;

type Transport = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';
const OFFICIAL_TRANSPORTS: readonly Transport[] = ['JSONRPC', 'HTTP+JSON', 'GRPC'];

/** What the test needs of one SDK generation: which transports its card should offer, how to follow one. */
interface Generation {
  readonly cardCompats: readonly CardCompat[];
  /** The transports beta's card must offer this generation: exactly the ones that reach beta. */
  readonly offered: readonly Transport[];
  /** The transports the card offers, read the way this SDK reads cards. */
  readonly offers: (card: any) => Transport[];
  /** Resolves the card at `agentUrl` with only `transport`, sends one message, gives the task id. */
  readonly sendVia: (agentUrl: string, transport: Transport) => Promise<string>;
}

const officialOnly = (bindings: unknown[]): Transport[] => [...new Set(bindings)].filter((b): b is Transport => OFFICIAL_TRANSPORTS.includes(b as Transport));

const GENERATIONS: Record<'1.0' | '0.3', Generation> = {
  '1.0': {
    cardCompats: ['merged', '1.0'],
    offered: ['JSONRPC', 'HTTP+JSON', 'GRPC'],
    offers: (card) => officialOnly(card.supportedInterfaces.map((i: any) => i.protocolBinding)),
    async sendVia(agentUrl, transport) {
      const factories = { JSONRPC: () => new v1.JsonRpcTransportFactory(), 'HTTP+JSON': () => new v1.RestTransportFactory(), GRPC: () => new v1Grpc.GrpcTransportFactory() };
      const client = await new v1.ClientFactory({ transports: [factories[transport]()] }).createFromUrl(`${agentUrl}/.well-known/agent-card.json`, '');
      const message: Sdk.Message = {
        messageId: crypto.randomUUID(),
        contextId: '',
        taskId: '',
        role: Role.ROLE_USER,
        parts: [{ content: { $case: 'text', value: `hello beta over ${transport}` }, metadata: undefined, filename: '', mediaType: '' }],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      };
      const task = (await client.sendMessage({ tenant: '', message, configuration: undefined, metadata: undefined })) as Sdk.Task;
      return task.id;
    },
  },
  '0.3': {
    cardCompats: ['merged', '0.3'],
    // No GRPC: v0.3 gRPC requests carry no tenant, so the shared port cannot tell beta from the default agent.
    offered: ['JSONRPC', 'HTTP+JSON'],
    offers: (card) => officialOnly([card.preferredTransport, ...card.additionalInterfaces.map((i: any) => i.transport)]),
    async sendVia(agentUrl, transport) {
      const factories = { JSONRPC: () => new v03.JsonRpcTransportFactory(), 'HTTP+JSON': () => new v03.RestTransportFactory(), GRPC: () => new v03Grpc.GrpcTransportFactory() };
      const client = await new v03.ClientFactory({ transports: [factories[transport]()] }).createFromUrl(`${agentUrl}/.well-known/agent-card.json`, '');
      const params: V03.MessageSendParams = {
        message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: `hello beta over ${transport}` }] },
      };
      const task = (await client.sendMessage(params)) as V03.Task;
      return task.id;
    },
  },
};

describe.each(Object.entries(GENERATIONS).flatMap(([version, generation]) => generation.cardCompats.map((compat) => [version, compat, generation] as const)))(
  'official v%s SDK client, cardCompat %s: every entry of a mounted agent card reaches that agent',
  (_version, cardCompat, generation) => {
    let running: RunningExecutor;
    let betaUrl: string;
    beforeAll(async () => {
      running = await startExecutor(
        {
          host: '127.0.0.1',
          port: 0,
          grpcPort: 0,
          cardCompat,
          shutdownGraceMs: 100,
          demo: { chunkDelayMs: 0 },
          agents: [
            { id: 'alpha', handler: 'demo', name: 'Alpha' },
            { id: 'beta', handler: 'demo', name: 'Beta' },
          ],
        },
        { logger: silentLogger, env: {} },
      );
      betaUrl = `${running.url}/agents/beta`;
    });
    afterAll(() => running.close());

    it("beta's card (as the SDK fetches it: no A2A-Version) offers exactly the transports that reach beta", async () => {
      const card = await json(await fetch(`${betaUrl}/.well-known/agent-card.json`));
      expect(generation.offers(card).sort()).toEqual([...generation.offered].sort());
      // Anything else in a v1.0 card is the WebSocket entry, beta's own URL.
      for (const entry of card.supportedInterfaces ?? []) {
        if (!OFFICIAL_TRANSPORTS.includes(entry.protocolBinding)) expect(entry).toMatchObject({ protocolBinding: WEBSOCKET_BINDING, url: `${betaUrl.replace('http:', 'ws:')}/a2a/ws` });
      }
    });

    it.each(OFFICIAL_TRANSPORTS)('over %s the task lands on beta, never on the default agent (or no client is built)', async (transport) => {
      if (!generation.offered.includes(transport)) {
        await expect(generation.sendVia(betaUrl, transport)).rejects.toThrow(/No compatible transport|not supported|no .*interface/i);
        return;
      }
      const taskId = await generation.sendVia(betaUrl, transport);
      expect((await fetch(`${betaUrl}/a2a/tasks/${taskId}`, { headers: V1 })).status).toBe(200);
      expect((await fetch(`${running.url}/a2a/tasks/${taskId}`, { headers: V1 })).status).toBe(404);
      expect((await fetch(`${running.url}/agents/alpha/a2a/tasks/${taskId}`, { headers: V1 })).status).toBe(404);
    });
  },
);
