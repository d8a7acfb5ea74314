import { RequestHandler } from '@a2a-polyglot/core';
import { SUBPROTOCOL } from '@a2a-polyglot/websocket';
import { WebSocket } from 'ws';
import { AgentMounts, createMountedListener, startA2AServer, type RunningA2AServer } from '../src/index.js';
import { Gates, testCard, scriptedAgent, V } from './helpers.js';

const handlerNamed = (name: string) => new RequestHandler({ card: testCard({ name }), executor: scriptedAgent(new Gates()) });
const getJson = async (url: string, init?: RequestInit): Promise<any> => (await fetch(url, init)).json();
const iface = (card: any, binding: string) => card.supportedInterfaces.find((i: any) => i.protocolBinding === binding)?.url;

describe('mounts: several agents on one server', () => {
  let running: RunningA2AServer;
  let root: RequestHandler;
  let alpha: RequestHandler;
  let beta: RequestHandler;

  beforeAll(async () => {
    root = handlerNamed('root agent');
    alpha = handlerNamed('alpha agent');
    beta = handlerNamed('beta agent');
    running = await startA2AServer({
      handler: root,
      mounts: [
        { handler: alpha, mountPath: '/agents/alpha' },
        { handler: beta, mountPath: '/agents/beta/', basePath: '/v1' },
      ],
    });
  });
  afterAll(async () => {
    await Promise.all([root, alpha, beta].map((h) => h.shutdown(100)));
    await running.close();
  });

  it('serves each card under its prefix, with URLs that include the prefix', async () => {
    const rootCard = await getJson(`${running.url}/.well-known/agent-card.json`);
    expect(rootCard.name).toBe('root agent');
    expect(iface(rootCard, 'JSONRPC')).toBe(`${running.url}/a2a/rpc`);

    for (const path of ['/agents/alpha/.well-known/agent-card.json', '/agents/alpha/.well-known/agent.json', '/agents/alpha/a2a/.well-known/agent-card.json']) {
      const card = await getJson(`${running.url}${path}`);
      expect(card.name).toBe('alpha agent');
      expect(iface(card, 'JSONRPC')).toBe(`${running.url}/agents/alpha/a2a/rpc`);
      expect(iface(card, 'HTTP+JSON')).toBe(`${running.url}/agents/alpha/a2a`);
    }
    const betaCard = await getJson(`${running.url}/agents/beta/.well-known/agent-card.json`);
    expect(betaCard.name).toBe('beta agent');
    expect(iface(betaCard, 'HTTP+JSON')).toBe(`${running.url}/agents/beta/v1`);
  });

  it('routes JSON-RPC and REST calls to the mounted agent, with its own task store', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi alpha' }] } } };
    const answer = await getJson(`${running.url}/agents/alpha/a2a/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...V },
      body: JSON.stringify(body),
    });
    const taskId = answer.result.task.id;
    const mine = await fetch(`${running.url}/agents/alpha/a2a/tasks/${taskId}`, { headers: V });
    expect(mine.status).toBe(200);
    const rootView = await fetch(`${running.url}/a2a/tasks/${taskId}`, { headers: V });
    expect(rootView.status).toBe(404);
    const betaView = await fetch(`${running.url}/agents/beta/v1/tasks/${taskId}`, { headers: V });
    expect(betaView.status).toBe(404);
  });

  it('tolerates a trailing slash on the mounted card, JSON-RPC and REST paths', async () => {
    expect((await getJson(`${running.url}/agents/alpha/.well-known/agent-card.json/`)).name).toBe('alpha agent');
    const body = { jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} };
    const answer = await getJson(`${running.url}/agents/alpha/a2a/rpc/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...V },
      body: JSON.stringify(body),
    });
    expect(answer.result).toBeDefined();
    expect((await fetch(`${running.url}/agents/beta/v1/tasks/`, { headers: V })).status).toBe(200);
  });

  it('serves each card at the last-resort /agent.json too', async () => {
    expect((await getJson(`${running.url}/agent.json`)).name).toBe('root agent');
    expect((await getJson(`${running.url}/agents/alpha/agent.json`)).name).toBe('alpha agent');
  });

  it('lists the mounted agents at the index path only when asked to', async () => {
    // This server has no index path: /agents is nobody's.
    expect((await fetch(`${running.url}/agents`)).status).toBe(404);
    const indexed = await startA2AServer({
      handler: alpha,
      publicBaseUrl: 'https://agents.example.com/x',
      mounts: [
        { handler: alpha, mountPath: '/agents/alpha' },
        { handler: beta, mountPath: '/agents/beta/' },
      ],
      agentIndexPath: '/agents',
    });
    try {
      const res = await fetch(`${indexed.url}/agents/`);
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual({
        agents: [
          { id: 'alpha', name: 'alpha agent', cardUrl: 'https://agents.example.com/x/agents/alpha/.well-known/agent-card.json', default: true },
          { id: 'beta', name: 'beta agent', cardUrl: 'https://agents.example.com/x/agents/beta/.well-known/agent-card.json', default: false },
        ],
      });
      const post = await fetch(`${indexed.url}/agents`, { method: 'POST' });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD');
    } finally {
      await indexed.close();
    }
  });

  it('answers 404 for paths no agent serves', async () => {
    expect((await fetch(`${running.url}/agents/alpha/nothing`)).status).toBe(404);
    expect((await fetch(`${running.url}/agents/gamma/.well-known/agent-card.json`)).status).toBe(404);
  });

  it('refuses a root or duplicate mountPath', () => {
    expect(() => createMountedListener({ handler: root }, [{ handler: alpha }])).toThrow(/non-root mountPath/);
    expect(() =>
      createMountedListener({ handler: root }, [
        { handler: alpha, mountPath: '/x' },
        { handler: beta, mountPath: '/x/' },
      ]),
    ).toThrow(/share the mountPath/);
    expect(() =>
      createMountedListener({ handler: root }, [
        { handler: alpha, mountPath: '/x', aliasPath: '/short' },
        { handler: beta, mountPath: '/y', aliasPath: '/short/' },
      ]),
    ).toThrow(/share the aliasPath/);
  });
});

describe('mounts: an aliasPath', () => {
  it('answers JSON-RPC at {alias}/a2a and the card at {alias}/.well-known/agent-card.json, nothing else there', async () => {
    const root = handlerNamed('root agent');
    const alpha = handlerNamed('alpha agent');
    const running = await startA2AServer({ handler: root, mounts: [{ handler: alpha, mountPath: '/agents/alpha', aliasPath: '/alpha' }] });
    try {
      const card = await getJson(`${running.url}/alpha/.well-known/agent-card.json`);
      expect(card.name).toBe('alpha agent');
      expect(iface(card, 'JSONRPC')).toBe(`${running.url}/agents/alpha/a2a/rpc`);
      expect((await getJson(`${running.url}/alpha/.well-known/agent-card.json/`)).name).toBe('alpha agent');
      const callInit = (): RequestInit => ({
        method: 'POST',
        headers: { 'content-type': 'application/json', ...V },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'nope' } }),
      });
      const call = (path: string) => fetch(`${running.url}${path}`, callInit());
      expect((await getJson(`${running.url}/alpha/a2a`, callInit())).error.code).toBe(-32001);
      expect((await getJson(`${running.url}/alpha/a2a/`, callInit())).error.code).toBe(-32001);
      for (const path of ['/alpha', '/alpha/a2a/rpc', '/alpha/a2a/tasks/nope', '/alpha/agent.json', '/beta/a2a']) expect((await call(path)).status).toBe(404);
      expect((await fetch(`${running.url}/alpha/.well-known/agent.json`)).status).toBe(404);
      // The root agent's own paths are untouched.
      expect((await getJson(`${running.url}/.well-known/agent-card.json`)).name).toBe('root agent');
    } finally {
      await Promise.all([root, alpha].map((h) => h.shutdown(100)));
      await running.close();
    }
  });
});

describe('mounts: an AgentMounts table changed while the server runs', () => {
  it('serves an added agent (HTTP, its own WebSocket path, the listing) at once and forgets a removed one', async () => {
    const root = handlerNamed('root agent');
    const gamma = handlerNamed('gamma agent');
    const table = new AgentMounts();
    const running = await startA2AServer({ handler: root, mounts: table, agentIndexPath: '/agents', websocket: true });
    const wsStatus = (path: string) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`${running.url.replace('http:', 'ws:')}${path}`, [SUBPROTOCOL]);
        ws.once('open', () => {
          ws.terminate();
          resolve(101);
        });
        ws.once('unexpected-response', (_req, res) => {
          ws.terminate();
          resolve(res.statusCode ?? 0);
        });
        ws.once('error', () => undefined);
      });
    try {
      expect((await fetch(`${running.url}/agents/gamma/.well-known/agent-card.json`)).status).toBe(404);
      table.add({ handler: gamma, mountPath: '/agents/gamma', websocket: true });
      const card = await getJson(`${running.url}/agents/gamma/.well-known/agent-card.json`);
      expect(card.name).toBe('gamma agent');
      expect(card.supportedInterfaces.map((i: any) => i.url)).toContain(`${running.url.replace('http:', 'ws:')}/agents/gamma/a2a/ws`);
      expect((await getJson(`${running.url}/agents`)).agents.map((a: any) => a.id)).toEqual(['gamma']);
      expect(await wsStatus('/agents/gamma/a2a/ws')).toBe(101);
      expect(await wsStatus('/a2a/ws')).toBe(101);
      expect(() => table.add({ handler: gamma, mountPath: '/agents/gamma/' })).toThrow('Two mounted agents share the mountPath /agents/gamma');

      await table.remove('/agents/gamma');
      expect((await fetch(`${running.url}/agents/gamma/.well-known/agent-card.json`)).status).toBe(404);
      expect((await getJson(`${running.url}/agents`)).agents).toEqual([]);
      expect(await wsStatus('/agents/gamma/a2a/ws')).toBe(404);
      expect(table.remove('/agents/gamma')).toBeUndefined();
    } finally {
      await Promise.all([root, gamma].map((h) => h.shutdown(100)));
      await running.close();
    }
  });
});
