import { silentLogger } from '@a2a-polyglot/core';
import { CONTRACT_BRIDGES, startContractUpstreams, type ContractBridge, type ContractUpstreams } from './contract-upstreams.js';
import { Client, resolveAgentCard, webSocketTransportFactory, type BindingKey, type WebSocketConstructor } from '@a2a-polyglot/client';
import { grpcTransportFactory } from '@a2a-polyglot/client/grpc';
import { Normalizer } from '@a2a-polyglot/conformance';
import { startExecutor, type RunningExecutor } from '@a2a-polyglot/executor';
import { Role, SendMessageResponse, StreamResponse, type AgentCard } from '@a2a-polyglot/model';
import WebSocket from 'ws';
import { FAILED_REPLY, fallbackText } from '../src/index.js';
import { trace } from './a2a-side.js';

/**
 * The streaming contract over every binding: each bridge is the single (root) agent of its own
 * executor service (`startExecutor`), which serves it over JSON-RPC, REST, gRPC and WebSocket
 * from one request handler. The same scenario (a streamed answer, a streamed failure, a
 * streamed empty answer, and the non-streaming answer and failure) is driven over the four
 * bindings with `@a2a-polyglot/client`, and the normalized outcomes must be identical.
 *
 * Upstream behaviour by input text, as in contract-upstreams.ts: `hello` → "Hel" + "lo";
 * `fail` → "Hel" then an upstream failure; `empty` → no text at all.
 */
jest.setTimeout(60_000);

const HERMES_KEY = 'hermes-key-all-bindings-1';
const OPENAI_KEY = 'sk-all-bindings-key-2';
const BRIDGES = CONTRACT_BRIDGES;
const BINDINGS: readonly BindingKey[] = ['jsonrpc', 'rest', 'grpc', 'websocket'];
type BridgeName = ContractBridge;

let upstreams: ContractUpstreams | undefined;
const services = new Map<BridgeName, { running: RunningExecutor; card: AgentCard }>();
const clients: Client[] = [];

beforeAll(async () => {
  upstreams = await startContractUpstreams({ hermes: HERMES_KEY, openai: OPENAI_KEY });
  const { settings } = upstreams;
  for (const bridge of BRIDGES) {
    const running = await startExecutor(
      {
        host: '127.0.0.1',
        port: 0,
        logLevel: 'error',
        shutdownGraceMs: 200,
        agents: [{ id: bridge, handler: bridge, name: `${bridge} agent`, settings: settings[bridge] }],
      } as never,
      { logger: silentLogger, env: {} },
    );
    const { card } = await resolveAgentCard(running.url);
    services.set(bridge, { running, card });
  }
});

afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all([...services.values()].map((s) => s.running.close()));
  await upstreams?.close();
});

/** A client of `bridge`'s service restricted to one binding. */
function client(bridge: BridgeName, binding: BindingKey): Client {
  const made = new Client(services.get(bridge)!.card, {
    bindings: [binding],
    transports: {
      GRPC: grpcTransportFactory,
      'urn:a2a-polyglot:binding:websocket:v1': webSocketTransportFactory({ WebSocket: WebSocket as unknown as WebSocketConstructor }),
    },
    timeoutMs: 10_000,
    idleTimeoutMs: 10_000,
    resume: false,
  });
  expect(made.binding).toBe(binding);
  clients.push(made);
  return made;
}

/** A fresh messageId per request: a repeated one would be answered as a replay of the first (idempotent sends). */
const request = (text: string) => ({
  message: { messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: 'text' as const, value: text } }] },
});

const expected = (bridge: BridgeName): Record<'hello' | 'fail' | 'empty', string[]> => ({
  hello: ['task:SUBMITTED', 'status:WORKING', 'chunk:"Hel"', 'chunk:"lo"+!', 'status:COMPLETED'],
  fail: ['task:SUBMITTED', 'status:WORKING', 'chunk:"Hel"', 'status:FAILED'],
  empty: ['task:SUBMITTED', 'status:WORKING', `chunk:${JSON.stringify(fallbackText(`${bridge} agent`))}!`, 'status:COMPLETED'],
});

/** What a binding's answers reduce to; identical across bindings. */
const outcomes = new Map<string, unknown>();

describe.each(BRIDGES)('%s as the root agent of its own executor', (bridge) => {
  it('the card lists all four bindings', () => {
    const bindings = services.get(bridge)!.card.supportedInterfaces.map((i) => i.protocolBinding);
    expect(bindings).toEqual(expect.arrayContaining(['JSONRPC', 'HTTP+JSON', 'GRPC', 'urn:a2a-polyglot:binding:websocket:v1']));
  });

  describe.each(BINDINGS)('over %s', (binding) => {
    it.each(['hello', 'fail', 'empty'] as const)('SendStreamingMessage %s follows the contract', async (text) => {
      const events: unknown[] = [];
      for await (const item of client(bridge, binding).sendStreamingMessage(request(text))) events.push(StreamResponse.toJSON(item.event));
      expect(trace(events as never[])).toEqual(expected(bridge)[text]);
      const ids = (events as Array<{ artifactUpdate?: { artifact: { artifactId: string } } }>)
        .filter((e) => e.artifactUpdate)
        .map((e) => e.artifactUpdate!.artifact.artifactId);
      expect(new Set(ids)).toEqual(new Set(['text-delta']));
      if (text === 'fail') {
        const last = events.at(-1) as { statusUpdate: { status: { message?: { parts: Array<{ text?: string }> } } } };
        expect(last.statusUpdate.status.message?.parts.map((p) => p.text).join('')).toContain('boom');
      }
      outcomes.set(`${binding}/${bridge}/stream/${text}`, new Normalizer().normalize(events));
    });

    it.each([
      ['hello', 'Hello'],
      ['empty', fallbackText(`${bridge} agent`)],
      ['fail', FAILED_REPLY],
    ])('SendMessage %s answers with one agent message', async (text, reply) => {
      const answer = SendMessageResponse.toJSON(await client(bridge, binding).sendMessage(request(text)));
      expect(answer).toMatchObject({ message: { role: 'ROLE_AGENT', parts: [{ text: reply }] } });
      outcomes.set(`${binding}/${bridge}/send/${text}`, new Normalizer().normalize(answer));
    });
  });
});

describe('cross-binding', () => {
  it('JSON-RPC, REST, gRPC and WebSocket give the same normalized outcomes for every bridge and input', () => {
    const keys = [...outcomes.keys()].filter((k) => k.startsWith('jsonrpc/'));
    expect(keys.length).toBe(BRIDGES.length * 6);
    for (const binding of BINDINGS.slice(1)) {
      for (const key of keys) {
        const other = key.replace(/^jsonrpc\//, `${binding}/`);
        expect({ key: other, outcome: outcomes.get(other) }).toEqual({ key: other, outcome: outcomes.get(key) });
      }
    }
  });
});
