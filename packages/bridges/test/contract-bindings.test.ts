import { RequestHandler, type AgentExecutor } from '@a2a-polyglot/core';
import { CONTRACT_BRIDGES, startContractUpstreams, type ContractUpstreams } from './contract-upstreams.js';
import { JsonRpcDriver, Normalizer, RestDriver, type Driver } from '@a2a-polyglot/conformance';
import { startA2AServer, type RunningA2AServer } from '@a2a-polyglot/server';
import { BridgeRegistry, closeExecutor, FAILED_REPLY, fallbackText } from '../src/index.js';
import { card, memoryLogger, trace } from './a2a-side.js';
import { TOKEN } from './fake-openclaw.js';

/**
 * The streaming contract, checked the way the conformance suite checks bindings: every
 * bridge, served by one A2A server (each agent under `/agents/<bridge>`), driven over
 * JSON-RPC and REST by the conformance drivers; the same inputs must give the same event
 * sequence on both bindings and for every bridge.
 *
 * Upstream behaviour by input text (contract-upstreams.ts): `hello` → "Hel" + "lo"; `fail` →
 * "Hel" then an upstream failure; `empty` → no text at all.
 */
const HERMES_KEY = 'hermes-key-contract-1';
const OPENAI_KEY = 'sk-contract-key-2';
const BRIDGES = CONTRACT_BRIDGES;
const BINDINGS = ['jsonrpc', 'rest'] as const;

let upstreams: ContractUpstreams | undefined;
let server: RunningA2AServer;
const handlers: RequestHandler[] = [];
const executors: AgentExecutor[] = [];
const logger = memoryLogger();

beforeAll(async () => {
  upstreams = await startContractUpstreams({ hermes: HERMES_KEY, openai: OPENAI_KEY });
  const { settings } = upstreams;
  const registry = new BridgeRegistry();
  const mounts = [];
  for (const name of BRIDGES) {
    const executor = await registry.create(name, { agentId: name, agentName: `${name} agent`, agentSettings: settings[name], logger });
    const handler = new RequestHandler({ card: card(`${name} agent`), executor, logger });
    executors.push(executor);
    handlers.push(handler);
    mounts.push({ handler, mountPath: `/agents/${name}` });
  }
  server = await startA2AServer({ handler: handlers[0]!, mounts });
});

afterAll(async () => {
  await Promise.all(handlers.map((h) => h.shutdown(100)));
  await Promise.all(executors.map(closeExecutor));
  await server.close();
  await upstreams?.close();
});

function driver(binding: (typeof BINDINGS)[number], bridge: string): Driver {
  const root = `${server.url}/agents/${bridge}`;
  const cardUrl = `${root}/.well-known/agent-card.json`;
  return binding === 'jsonrpc' ? new JsonRpcDriver(`${root}/a2a/rpc`, cardUrl) : new RestDriver(`${root}/a2a`, cardUrl);
}

/** A fresh messageId per request: a repeated one would be answered as a replay of the first (idempotent sends). */
const request = (text: string) => ({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } });

async function streamTrace(d: Driver, text: string): Promise<{ trace: string[]; events: unknown[] }> {
  const opened = await d.open('SendStreamingMessage', request(text));
  if (!opened.ok) throw new Error(`stream refused: ${opened.error.code} ${opened.error.message}`);
  const events: any[] = [];
  for await (const item of opened.stream) events.push(item.event);
  return { trace: trace(events), events };
}

const expected = (bridge: string) => ({
  hello: ['task:SUBMITTED', 'status:WORKING', 'chunk:"Hel"', 'chunk:"lo"+!', 'status:COMPLETED'],
  fail: ['task:SUBMITTED', 'status:WORKING', 'chunk:"Hel"', 'status:FAILED'],
  empty: ['task:SUBMITTED', 'status:WORKING', `chunk:${JSON.stringify(fallbackText(`${bridge} agent`))}!`, 'status:COMPLETED'],
});

const outcomes = new Map<string, unknown>();

describe.each(BINDINGS)('%s', (binding) => {
  describe.each(BRIDGES)('%s', (bridge) => {
    it.each(['hello', 'fail', 'empty'] as const)('SendStreamingMessage %s follows the contract', async (text) => {
      const { trace: got, events } = await streamTrace(driver(binding, bridge), text);
      expect(got).toEqual(expected(bridge)[text]);
      const ids = events.filter((e: any) => e.artifactUpdate).map((e: any) => e.artifactUpdate.artifact.artifactId);
      expect(new Set(ids)).toEqual(new Set(['text-delta']));
      outcomes.set(`${binding}/${bridge}/stream/${text}`, new Normalizer().normalize(events));
    });

    it.each([
      ['hello', 'Hello'],
      ['empty', fallbackText(`${bridge} agent`)],
      ['fail', FAILED_REPLY],
    ])('SendMessage %s answers with one agent message', async (text, reply) => {
      const answer = await driver(binding, bridge).call('SendMessage', request(text));
      expect(answer).toMatchObject({ ok: true, result: { message: { role: 'ROLE_AGENT', parts: [{ text: reply }] } } });
      outcomes.set(`${binding}/${bridge}/send/${text}`, new Normalizer().normalize((answer as { result: unknown }).result));
    });

    it('serves its own card at its own prefix', async () => {
      const found = await driver(binding, bridge).agentCard();
      expect(found).toMatchObject({ ok: true, result: { name: `${bridge} agent` } });
    });
  });
});

describe('cross-binding', () => {
  it('JSON-RPC and REST produce the same normalized events for every bridge and input', () => {
    const keys = [...outcomes.keys()].filter((k) => k.startsWith('jsonrpc/'));
    expect(keys.length).toBe(BRIDGES.length * 6);
    for (const key of keys) expect({ key, outcome: outcomes.get(key.replace(/^jsonrpc\//, 'rest/')) }).toEqual({ key, outcome: outcomes.get(key) });
  });

  it('no upstream key appears in any log line', () => {
    expect(logger.text()).not.toContain(OPENAI_KEY);
    expect(logger.text()).not.toContain(HERMES_KEY);
    expect(logger.text()).not.toContain(TOKEN);
    expect(logger.lines.some((l) => l.msg.includes('boom'))).toBe(true);
  });
});
