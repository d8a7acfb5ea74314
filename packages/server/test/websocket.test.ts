import { WebSocket } from 'ws';
import { SUBPROTOCOL, WEBSOCKET_BINDING_URI } from '@a2a-polyglot/websocket';
import { rpc, sendParams, startTestServer, type TestServer } from './helpers.js';

/** Opens a socket with the A2A subprotocol; resolves once open, rejects with the HTTP status otherwise. */
function open(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url, [SUBPROTOCOL], { headers: { 'A2A-Version': '1.0' } });
  ws.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
    ws.once('close', () => reject(new Error('closed')));
  });
}

/** Sends one request and waits (bounded) for the frame answering it. */
function call(ws: WebSocket, id: number, method: string, params: unknown): Promise<any> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer')), 5000);
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.id === id && ('result' in frame || 'error' in frame)) {
        clearTimeout(timer);
        resolve(frame);
      }
    });
    ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
  });
}

const cardOf = async (s: TestServer) => (await (await fetch(`${s.url}/.well-known/agent-card.json`)).json()) as any;

describe('startA2AServer with the websocket option', () => {
  it('is off by default: no upgrades, no card entry', async () => {
    const s = await startTestServer();
    try {
      await expect(open(`${s.url.replace('http', 'ws')}/a2a/ws`)).rejects.toThrow();
      expect((await cardOf(s)).supportedInterfaces.map((i: any) => i.protocolBinding)).toEqual(['JSONRPC', 'HTTP+JSON', 'JSONRPC', 'HTTP+JSON']);
    } finally {
      await s.close();
    }
  });

  it('serves the binding on the same port at {basePath}/ws and lists it in the card', async () => {
    const s = await startTestServer({ websocket: true });
    try {
      const card = await cardOf(s);
      const wsUrl = `${s.url.replace('http://', 'ws://')}/a2a/ws`;
      expect(card.supportedInterfaces.map((i: any) => [i.protocolBinding, i.url])).toEqual([
        ['JSONRPC', `${s.url}/a2a/rpc`],
        ['HTTP+JSON', `${s.url}/a2a`],
        [WEBSOCKET_BINDING_URI, wsUrl],
        // The A2A v0.3 entries (same URLs, protocolVersion 0.3) come after every 1.0 one.
        ['JSONRPC', `${s.url}/a2a/rpc`],
        ['HTTP+JSON', `${s.url}/a2a`],
      ]);
      const ws = await open(wsUrl);
      const sent = await call(ws, 1, 'SendMessage', sendParams('hello'));
      expect(sent.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      // Same core behind both wires: the task is visible over JSON-RPC/HTTP.
      const viaHttp = await rpc(s.rpcUrl, 'GetTask', { id: sent.result.task.id });
      expect(viaHttp.body.result.id).toBe(sent.result.task.id);
      ws.terminate();
    } finally {
      await s.close();
    }
  });

  it('listInCard: false leaves it out of the card while the endpoint keeps serving', async () => {
    const s = await startTestServer({ websocket: { listInCard: false } });
    try {
      expect((await cardOf(s)).supportedInterfaces.map((i: any) => `${i.protocolBinding} ${i.protocolVersion}`)).toEqual([
        'JSONRPC 1.0',
        'HTTP+JSON 1.0',
        'JSONRPC 0.3',
        'HTTP+JSON 0.3',
      ]);
      const ws = await open(`${s.url.replace('http', 'ws')}/a2a/ws`);
      expect((await call(ws, 1, 'ListTasks', {})).result).toBeDefined();
      ws.terminate();
    } finally {
      await s.close();
    }
  });

  it('upgrades with one trailing slash too', async () => {
    const s = await startTestServer({ websocket: true });
    try {
      (await open(`${s.url.replace('http', 'ws')}/a2a/ws/`)).terminate();
      await expect(open(`${s.url.replace('http', 'ws')}/a2a/ws//`)).rejects.toThrow('HTTP 404');
    } finally {
      await s.close();
    }
  });

  it('derives wss:// from an https publicBaseUrl and follows basePath or an explicit path', async () => {
    const a = await startTestServer({ websocket: true, publicBaseUrl: 'https://agents.example.com/x', basePath: '' });
    const b = await startTestServer({ websocket: { path: 'live/socket' } });
    try {
      expect((await cardOf(a)).supportedInterfaces[2]).toMatchObject({ protocolBinding: WEBSOCKET_BINDING_URI, url: 'wss://agents.example.com/x/ws' });
      (await open(`${a.url.replace('http', 'ws')}/ws`)).terminate();
      (await open(`${b.url.replace('http', 'ws')}/live/socket`)).terminate();
      await expect(open(`${b.url.replace('http', 'ws')}/a2a/ws`)).rejects.toThrow('HTTP 404');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('close() closes open sockets with 1001 and resolves', async () => {
    const s = await startTestServer({ websocket: true });
    const ws = await open(`${s.url.replace('http', 'ws')}/a2a/ws`);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    await s.close();
    expect(await closed).toBe(1001);
  });
});
