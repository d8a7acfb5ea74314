import { request } from 'node:https';
import { makeTestPki, type TestPki } from '@a2a-polyglot/testing';
import { SUBPROTOCOL } from '@a2a-polyglot/websocket';
import { WebSocket } from 'ws';
import { sendParams, startTestServer, type TestServer } from './helpers.js';

/** One JSON-RPC call over HTTPS trusting `ca` (fetch on Node 20 cannot take a CA). */
function httpsRpc(url: string, body: unknown, ca?: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', ca, headers: { 'content-type': 'application/json', 'a2a-version': '1.0' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

function httpsGet(url: string, ca: string): Promise<any> {
  return new Promise((resolve, reject) => {
    request(url, { ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
    })
      .on('error', reject)
      .end();
  });
}

describe('startA2AServer with tls (HTTPS and WSS)', () => {
  let pki: TestPki;
  let s: TestServer;

  beforeAll(async () => {
    pki = makeTestPki();
    s = await startTestServer({ tls: { key: pki.server.key, cert: pki.server.cert }, websocket: true });
  }, 30_000);
  afterAll(() => s.close());

  it('listens on https and serves a JSON-RPC call to a client that trusts the CA', async () => {
    expect(s.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const answer = await httpsRpc(s.rpcUrl, { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: sendParams('hello') }, pki.ca.cert);
    expect(answer.status).toBe(200);
    expect(answer.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('fails the handshake for a client that does not trust the CA', async () => {
    await expect(httpsRpc(s.rpcUrl, { jsonrpc: '2.0', id: 2, method: 'ListTasks', params: {} })).rejects.toThrow(/self.signed|unable to (get|verify)/i);
    await expect(fetch(s.rpcUrl, { method: 'POST' })).rejects.toThrow();
  });

  it('lists https and wss URLs in the card and serves WebSocket over TLS', async () => {
    const card = await httpsGet(`${s.url}/.well-known/agent-card.json`, pki.ca.cert);
    const urls = card.supportedInterfaces.map((i: any) => i.url);
    expect(urls).toContain(`${s.url}/a2a/rpc`);
    expect(urls).toContain(`${s.url.replace('https://', 'wss://')}/a2a/ws`);
    const ws = new WebSocket(`${s.url.replace('https://', 'wss://')}/a2a/ws`, [SUBPROTOCOL], { ca: pki.ca.cert, headers: { 'A2A-Version': '1.0' } });
    const frame = await new Promise<any>((resolve, reject) => {
      ws.once('error', reject);
      ws.once('open', () => ws.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'SendMessage', params: sendParams('over wss') })));
      ws.on('message', (data) => {
        const f = JSON.parse(data.toString());
        if (f.id === 7) resolve(f);
      });
    });
    ws.close();
    expect(frame.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
