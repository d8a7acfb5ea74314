/**
 * The Host and Origin checks of the listener and the WebSocket upgrade (`browserAccessCheck`):
 * pages of other origins can neither read nor send, a DNS name that is not the server's gets
 * 403 (DNS rebinding), and clients outside browsers (no Origin; Host 127.0.0.1, localhost,
 * [::1], or a configured name) are not affected. The same in a real browser:
 * services/executor/test/browser-origins.test.ts.
 */
import { request, type IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { SUBPROTOCOL } from '@a2a-polyglot/websocket';
import { nodeArrivingRequest } from '../src/arriving-request.js';
import { browserAccessCheck } from '../src/browser-access.js';
import { sendParams, startTestServer, V, type TestServer } from './helpers.js';

interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A request with full control over Host and Origin (fetch sets Host itself). */
function raw(url: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...V, ...headers }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The HTTP status an upgrade gets: 101 when the socket opens. */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  const ws = new WebSocket(url, [SUBPROTOCOL], { headers: { ...V, ...headers } });
  ws.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    ws.once('error', reject);
  });
}

const reasonOf = (res: RawResponse) => JSON.parse(res.body).error.details[0].reason;
const sendBody = (text: string) => JSON.stringify(sendParams(text));

describe('the Host check (DNS rebinding)', () => {
  let s: TestServer;
  let port: string;
  beforeAll(async () => {
    s = await startTestServer({ websocket: true });
    port = new URL(s.url).port;
  });
  afterAll(() => s.close());

  it('refuses a host name that is not the server’s on every path and the upgrade, in each binding’s terms', async () => {
    const host = { host: `attacker.example:${port}` };
    const listed = await raw(`${s.restUrl}/tasks`, host);
    expect([listed.status, reasonOf(listed)]).toEqual([403, 'PERMISSION_DENIED']);
    expect(JSON.parse(listed.body).error.message).toMatch(/Host attacker\.example is not served here/);
    const rpc = await raw(s.rpcUrl, { ...host, 'content-type': 'application/json' }, 'POST', '{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}');
    expect(rpc.status).toBe(403);
    expect(JSON.parse(rpc.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -31403 } });
    for (const path of ['/.well-known/agent-card.json', '/healthz', '/nothing'])
      expect([path, (await raw(`${s.url}${path}`, host)).status]).toEqual([path, 403]);
    expect(await upgradeStatus(`ws://127.0.0.1:${port}/a2a/ws`, host)).toBe(403);
    expect(s.running.websocket!.stats()).toHaveLength(0);
  });

  it('accepts IP addresses, localhost, *.localhost and [::1], with or without a port', async () => {
    for (const name of [`127.0.0.1:${port}`, `localhost:${port}`, `LocalHost.:${port}`, `app.localhost:${port}`, `[::1]:${port}`, '127.0.0.2', '10.1.2.3:80']) {
      expect([name, (await raw(`${s.restUrl}/tasks`, { host: name })).status]).toEqual([name, 200]);
    }
    expect(await upgradeStatus(`ws://127.0.0.1:${port}/a2a/ws`, { host: `localhost:${port}` })).toBe(101);
  });

  it('accepts the host of publicBaseUrl and the allowedHosts (a leading dot for a domain), and nothing else', async () => {
    const named = await startTestServer({ publicBaseUrl: 'https://agents.example.com/x', allowedHosts: ['agents.internal', '.corp.example'] });
    try {
      for (const name of ['agents.example.com', 'agents.internal:8080', 'corp.example', 'a.b.corp.example']) {
        expect([name, (await raw(`${named.restUrl}/tasks`, { host: name })).status]).toEqual([name, 200]);
      }
      for (const name of ['evilcorp.example', 'agents.example.com.evil.test', 'internal']) {
        expect([name, (await raw(`${named.restUrl}/tasks`, { host: name })).status]).toEqual([name, 403]);
      }
    } finally {
      await named.close();
    }
  });

  it('with trustProxy, checks X-Forwarded-Host when present', async () => {
    const proxied = await startTestServer({ trustProxy: true, allowedHosts: ['public.test'] });
    try {
      expect((await raw(`${proxied.restUrl}/tasks`, { host: 'backend', 'x-forwarded-host': 'public.test' })).status).toBe(200);
      expect((await raw(`${proxied.restUrl}/tasks`, { host: 'public.test', 'x-forwarded-host': 'evil.test' })).status).toBe(403);
    } finally {
      await proxied.close();
    }
  });

  it('unless allowedHosts is set, accepts any host on a connection that arrived on a non-loopback address', () => {
    const req = (localAddress: string, host: string) => nodeArrivingRequest({ headers: { host }, socket: { localAddress } } as unknown as IncomingMessage);
    expect(browserAccessCheck({})(req('192.0.2.7', 'agents.lan:8080'))).toEqual({ ok: true });
    expect(browserAccessCheck({})(req('::ffff:127.0.0.1', 'agents.lan:8080'))).toMatchObject({ ok: false });
    expect(browserAccessCheck({})(req('::1', 'agents.lan:8080'))).toMatchObject({ ok: false });
    expect(browserAccessCheck({ allowedHosts: [] })(req('192.0.2.7', 'agents.lan:8080'))).toMatchObject({ ok: false });
    expect(browserAccessCheck({ allowedHosts: ['agents.lan'] })(req('192.0.2.7', 'agents.lan:8080'))).toEqual({ ok: true });
    expect(browserAccessCheck({ allowedHosts: ['*'] })(req('127.0.0.1', 'anything.example'))).toEqual({ ok: true });
  });
});

describe('the Origin check (CORS)', () => {
  let s: TestServer;
  let port: string;
  beforeAll(async () => {
    s = await startTestServer({ websocket: true, cors: { origins: ['https://app.example.com/'] } });
    port = new URL(s.url).port;
  });
  afterAll(() => s.close());

  it('lets clients without an Origin and pages of the server’s own origin in, without CORS headers', async () => {
    const none = await raw(`${s.restUrl}/tasks`, {});
    expect([none.status, none.headers['access-control-allow-origin']]).toEqual([200, undefined]);
    // Own means the Host's host and port: behind a TLS-terminating proxy the page is https and we see http.
    for (const origin of [s.url, `http://localhost:${port}`, `https://127.0.0.1:${port}`]) {
      const own = await raw(`${s.restUrl}/tasks`, { origin, host: new URL(origin).host });
      expect([origin, own.status, own.headers['access-control-allow-origin']]).toEqual([origin, 200, undefined]);
    }
    expect(await upgradeStatus(`ws://127.0.0.1:${port}/a2a/ws`, {})).toBe(101);
    expect(await upgradeStatus(`ws://127.0.0.1:${port}/a2a/ws`, { origin: s.url })).toBe(101);
  });

  it('refuses pages of other origins before the agent runs: reads, simple POSTs (no preflight), preflights and upgrades', async () => {
    for (const origin of ['http://127.0.0.1:1', 'http://localhost', `http://127.0.0.2:${port}`, 'https://evil.example', 'null']) {
      const read = await raw(`${s.restUrl}/tasks`, { origin });
      expect([origin, read.status, reasonOf(read)]).toEqual([origin, 403, 'PERMISSION_DENIED']);
      // What a page can send without asking: a POST whose body has no content type.
      expect((await raw(`${s.restUrl}/message:send`, { origin }, 'POST', sendBody(`from ${origin}`))).status).toBe(403);
      const rpc = await raw(
        s.rpcUrl,
        { origin },
        'POST',
        JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'SendMessage', params: sendParams(`rpc from ${origin}`) }),
      );
      expect([rpc.status, JSON.parse(rpc.body).error.code]).toEqual([403, -31403]);
      expect((await raw(s.rpcUrl, { origin, 'access-control-request-method': 'POST' }, 'OPTIONS')).status).toBe(403);
      expect(await upgradeStatus(`ws://127.0.0.1:${port}/a2a/ws`, { origin })).toBe(403);
    }
    const tasks = await raw(`${s.restUrl}/tasks`, {});
    expect(JSON.parse(tasks.body).tasks).toEqual([]);
  });

  it('lets a listed origin call, with its own Access-Control-Allow-Origin and Vary: Origin', async () => {
    const origin = 'https://app.example.com';
    const sent = await raw(`${s.restUrl}/message:send`, { origin, 'content-type': 'application/json' }, 'POST', sendBody('from the app'));
    expect([sent.status, sent.headers['access-control-allow-origin'], sent.headers.vary]).toEqual([200, origin, 'Origin']);
    const preflight = await raw(
      s.rpcUrl,
      { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, a2a-version' },
      'OPTIONS',
    );
    expect([preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([204, origin]);
    expect(await upgradeStatus(`ws://127.0.0.1:${port}/a2a/ws`, { origin })).toBe(101);
  });

  it('lets any origin read the public card, and nothing more there', async () => {
    const card = await raw(`${s.url}/.well-known/agent-card.json`, { origin: 'https://evil.example' });
    expect([card.status, card.headers['access-control-allow-origin']]).toEqual([200, '*']);
    const preflight = await raw(`${s.url}/.well-known/agent-card.json`, { origin: 'https://evil.example', 'access-control-request-method': 'GET' }, 'OPTIONS');
    expect([preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([204, '*']);
    expect((await raw(`${s.url}/.well-known/agent-card.json`, { origin: 'https://evil.example' }, 'POST', '{}')).status).toBe(403);
  });

  it('"*" lets every origin call (the old default), and own origins behind a proxy count as own', async () => {
    const open = await startTestServer({ cors: { origins: ['*'] } });
    const configured = await startTestServer({ publicBaseUrl: 'https://agents.example.com/x' });
    const forwarded = await startTestServer({ trustProxy: true, allowedHosts: ['public.test'] });
    try {
      const any = await raw(`${open.restUrl}/tasks`, { origin: 'https://evil.example' });
      expect([any.status, any.headers['access-control-allow-origin']]).toEqual([200, '*']);
      // The proxy sends its upstream Host; the page's origin is the public one.
      expect((await raw(`${configured.restUrl}/tasks`, { origin: 'https://agents.example.com' })).status).toBe(200);
      const viaProxy = { origin: 'https://public.test', 'x-forwarded-host': 'public.test', 'x-forwarded-proto': 'https' };
      expect((await raw(`${forwarded.restUrl}/tasks`, viaProxy)).status).toBe(200);
      expect((await raw(`${forwarded.restUrl}/tasks`, { ...viaProxy, origin: 'https://evil.example' })).status).toBe(403);
    } finally {
      await Promise.all([open.close(), configured.close(), forwarded.close()]);
    }
  });

  it('serves every response with X-Content-Type-Options: nosniff', async () => {
    for (const path of ['/.well-known/agent-card.json', '/a2a/tasks', '/nothing']) {
      expect([path, (await raw(`${s.url}${path}`, {})).headers['x-content-type-options']]).toEqual([path, 'nosniff']);
    }
  });
});
