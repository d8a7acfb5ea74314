import { request } from 'node:http';
import { recordingLogger } from '@a2a-polyglot/testing';
import { RequestHandler } from '@a2a-polyglot/core';
import { createA2ARequestListener } from '../src/index.js';
import { Gates, readSse, rest, rpc, rpcStream, sendParams, startTestServer, testCard, scriptedAgent, V, type TestServer } from './helpers.js';

/** A raw GET with full control over headers (fetch will not set Host). */
function rawRequest(
  url: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('agent card', () => {
  let s: TestServer;
  beforeAll(async () => {
    // The Host names these tests send must be allowed: on loopback, others are refused (DNS rebinding).
    s = await startTestServer({ allowedHosts: ['agents.test', 'a.test'] });
  });
  afterAll(() => s.close());

  it('is served at the well-known, base-path, legacy and last-resort URLs without a version header', async () => {
    for (const path of ['/.well-known/agent-card.json', '/a2a/.well-known/agent-card.json', '/.well-known/agent.json', '/agent.json']) {
      const res = await fetch(`${s.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(((await res.json()) as any).name).toBe('test agent');
    }
  });

  it('lists JSON-RPC and REST interfaces built from the Host header, v1.0 first, then v0.3 at the same URLs', async () => {
    const res = await rawRequest(`${s.url}/.well-known/agent-card.json`, { host: 'agents.test:8443' });
    const card = JSON.parse(res.body);
    expect(card.supportedInterfaces).toEqual([
      { url: 'http://agents.test:8443/a2a/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: 'http://agents.test:8443/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: 'http://agents.test:8443/a2a/rpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: 'http://agents.test:8443/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
    ]);
    expect(res.headers.vary).toBe('Host, A2A-Version');
  });

  it('ignores forwarded headers unless trustProxy, and rejects a malformed Host', async () => {
    const forwarded = await rawRequest(`${s.url}/.well-known/agent-card.json`, {
      host: 'a.test',
      'x-forwarded-host': 'evil.test',
      'x-forwarded-proto': 'https',
    });
    expect(JSON.parse(forwarded.body).supportedInterfaces[0].url).toBe('http://a.test/a2a/rpc');
    const bad = await rawRequest(`${s.url}/.well-known/agent-card.json`, { host: 'evil.test/"><script>' });
    expect(bad.status).toBe(403);
    // Where any Host is accepted, a malformed one is still never echoed into the card.
    const open = await startTestServer({ allowedHosts: ['*'] });
    try {
      const echoed = await rawRequest(`${open.url}/.well-known/agent-card.json`, { host: 'evil.test/"><script>' });
      expect(JSON.parse(echoed.body).supportedInterfaces[0].url).toBe(`${open.url}/a2a/rpc`);
    } finally {
      await open.close();
    }
  });

  it('sends Cache-Control and an ETag, and 304 on If-None-Match', async () => {
    const first = await fetch(`${s.url}/.well-known/agent-card.json`);
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await fetch(`${s.url}/.well-known/agent-card.json`, { headers: { 'if-none-match': `"other", W/${etag}` } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    const changed = await fetch(`${s.url}/.well-known/agent-card.json`, { headers: { 'if-none-match': '"other"' } });
    expect(changed.status).toBe(200);
  });

  it('sends a stable Last-Modified and answers If-Modified-Since with 304; If-None-Match takes precedence', async () => {
    const card = `${s.url}/.well-known/agent-card.json`;
    const first = await fetch(card);
    const lastModified = first.headers.get('last-modified')!;
    expect(lastModified).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(Date.parse(lastModified)).toBeLessThanOrEqual(Date.now());
    expect((await fetch(card)).headers.get('last-modified')).toBe(lastModified);

    const notModified = await fetch(card, { headers: { 'if-modified-since': lastModified } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('last-modified')).toBe(lastModified);
    expect(notModified.headers.get('etag')).toBe(first.headers.get('etag'));
    const later = new Date(Date.parse(lastModified) + 60_000).toUTCString();
    expect((await fetch(card, { headers: { 'if-modified-since': later } })).status).toBe(304);

    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
    expect((await fetch(card, { headers: { 'if-modified-since': earlier } })).status).toBe(200);
    expect((await fetch(card, { headers: { 'if-modified-since': 'not a date' } })).status).toBe(200);
    const etagWins = await fetch(card, { headers: { 'if-none-match': '"other"', 'if-modified-since': lastModified } });
    expect(etagWins.status).toBe(200);
  });

  it('answers HEAD without a body and other verbs with 405', async () => {
    const head = await rawRequest(`${s.url}/.well-known/agent-card.json`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    const post = await fetch(`${s.url}/.well-known/agent-card.json`, { method: 'POST' });
    expect(post.status).toBe(405);
  });
});

describe('card with publicBaseUrl, trustProxy, basePath and extra interfaces', () => {
  it('uses publicBaseUrl when set', async () => {
    const s = await startTestServer({
      publicBaseUrl: 'https://agents.example.com/x/',
      extraInterfaces: (base) => [
        { url: `${base.replace('https', 'wss')}/ws`, protocolBinding: 'https://a2a-polyglot.dev/ws', protocolVersion: '1.0', tenant: '' },
      ],
    });
    try {
      const card = (await (await fetch(`${s.url}/.well-known/agent-card.json`)).json()) as any;
      expect(card.supportedInterfaces.map((i: any) => [i.protocolBinding, i.url])).toEqual([
        ['JSONRPC', 'https://agents.example.com/x/a2a/rpc'],
        ['HTTP+JSON', 'https://agents.example.com/x/a2a'],
        ['https://a2a-polyglot.dev/ws', 'wss://agents.example.com/x/ws'],
        ['JSONRPC', 'https://agents.example.com/x/a2a/rpc'],
        ['HTTP+JSON', 'https://agents.example.com/x/a2a'],
      ]);
    } finally {
      await s.close();
    }
  });

  it('believes X-Forwarded-* with trustProxy', async () => {
    const s = await startTestServer({ trustProxy: true, allowedHosts: ['public.test'] });
    try {
      const res = await rawRequest(`${s.url}/.well-known/agent-card.json`, {
        host: 'internal:80',
        'x-forwarded-host': 'public.test',
        'x-forwarded-proto': 'https',
      });
      expect(JSON.parse(res.body).supportedInterfaces[1].url).toBe('https://public.test/a2a');
    } finally {
      await s.close();
    }
  });

  it('with trustProxy, builds card URLs from RFC 7239 Forwarded and X-Forwarded-Prefix, and ignores an unsafe prefix', async () => {
    const s = await startTestServer({ trustProxy: true, allowedHosts: ['public.test', 'xf.test'] });
    try {
      const card = async (headers: Record<string, string>) => {
        const res = await rawRequest(`${s.url}/.well-known/agent-card.json`, { host: 'internal:80', ...headers });
        return { url: JSON.parse(res.body).supportedInterfaces[1].url as string, vary: res.headers.vary };
      };
      const rfc = await card({ forwarded: 'for=192.0.2.60;proto=https;host="public.test:8443", for=10.0.0.2', 'x-forwarded-prefix': '/gw/agents/' });
      expect(rfc.url).toBe('https://public.test:8443/gw/agents/a2a');
      expect(rfc.vary).toBe('Host, Forwarded, X-Forwarded-Host, X-Forwarded-Proto, X-Forwarded-Prefix, A2A-Version');
      // Forwarded wins over X-Forwarded-*; X-Forwarded-* fill in what it leaves out.
      expect((await card({ forwarded: 'host=public.test', 'x-forwarded-host': 'xf.test', 'x-forwarded-proto': 'https' })).url).toBe('https://public.test/a2a');
      for (const prefix of ['/../admin', 'gw', '/gw?x=1', '/gw/./x', '//evil.test']) {
        expect((await card({ 'x-forwarded-host': 'public.test', 'x-forwarded-prefix': prefix })).url).toBe('http://public.test/a2a');
      }
      expect((await card({ forwarded: 'host="public.test', 'x-forwarded-host': 'xf.test' })).url).toBe('http://xf.test/a2a');
    } finally {
      await s.close();
    }
  });

  it('mounts at the root with basePath ""', async () => {
    const s = await startTestServer({ basePath: '' });
    try {
      expect((await rpc(`${s.url}/rpc`, 'ListTasks', {})).body.result).toBeDefined();
      expect((await rest(s.url, 'GET', '/tasks')).status).toBe(200);
      const card = (await (await fetch(`${s.url}/.well-known/agent-card.json`)).json()) as any;
      expect(card.supportedInterfaces[0].url).toBe(`${s.url}/rpc`);
      expect(card.supportedInterfaces[1].url).toBe(s.url);
    } finally {
      await s.close();
    }
  });
});

describe('a trailing slash', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is tolerated on the JSON-RPC URL (clients append one to the card URL)', async () => {
    const res = await rpc(`${s.rpcUrl}/`, 'ListTasks', {});
    expect(res.status).toBe(200);
    expect(res.body.result).toBeDefined();
  });

  it('is tolerated on the card paths', async () => {
    for (const path of ['/.well-known/agent-card.json/', '/a2a/.well-known/agent-card.json/', '/.well-known/agent.json/', '/agent.json/']) {
      const res = await fetch(`${s.url}${path}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).name).toBe('test agent');
    }
  });

  it('is tolerated on REST routes: send, list, get, cancel', async () => {
    const sent = await rest(s.restUrl, 'POST', '/message:send/', sendParams('hello'));
    expect(sent.status).toBe(200);
    const id = sent.body.task.id;
    expect((await rest(s.restUrl, 'GET', '/tasks/?pageSize=1')).body.tasks).toHaveLength(1);
    expect((await rest(s.restUrl, 'GET', `/tasks/${id}/`)).body.id).toBe(id);
    expect((await rest(s.restUrl, 'POST', `/tasks/${id}:cancel/`, {})).body.error.details[0].reason).toBe('TASK_NOT_CANCELABLE');
  });

  it('only one: a double slash, or the bare REST base, is still 404', async () => {
    expect((await fetch(`${s.rpcUrl}//`, { method: 'POST', headers: { 'content-type': 'application/json', ...V }, body: '{}' })).status).toBe(404);
    expect((await fetch(`${s.restUrl}/`, { headers: V })).status).toBe(404);
  });
});

describe('routing, CORS and robustness', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('answers unknown paths with 404 and an error body', async () => {
    const res = await fetch(`${s.url}/nothing/here`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).error.details[0].reason).toBe('METHOD_NOT_FOUND');
  });

  it('answers CORS preflights of a listed origin with 204 and the allowed headers', async () => {
    const listed = await startTestServer({ cors: { origins: ['https://app.test'] } });
    try {
      const res = await fetch(`${listed.url}/a2a/rpc`, { method: 'OPTIONS', headers: { origin: 'https://app.test', 'access-control-request-method': 'POST' } });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.test');
      expect(res.headers.get('vary')).toBe('Origin');
      const allowed = res.headers.get('access-control-allow-headers')!;
      for (const h of ['content-type', 'authorization', 'a2a-version', 'a2a-extensions', 'last-event-id', 'x-api-key']) expect(allowed).toContain(h);
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    } finally {
      await listed.close();
    }
  });

  it('sends CORS headers to a listed origin on normal and error responses', async () => {
    const listed = await startTestServer({ cors: { origins: ['https://app.test'] } });
    try {
      const origin = { origin: 'https://app.test' };
      const ok = await fetch(listed.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...V, ...origin },
        body: '{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}',
      });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.test');
      expect(ok.headers.get('access-control-expose-headers')).toBe('a2a-extensions, x-a2a-extensions');
      expect((await fetch(`${listed.url}/nope`, { headers: origin })).headers.get('access-control-allow-origin')).toBe('https://app.test');
    } finally {
      await listed.close();
    }
  });

  it('can turn CORS off', async () => {
    const off = await startTestServer({ cors: false });
    try {
      const res = await fetch(`${off.rpcUrl}`, { method: 'OPTIONS' });
      expect(res.status).toBe(405);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await off.close();
    }
  });

  it('never throws out of the listener: a failing handler gets a bare 500', async () => {
    const handler = new RequestHandler({ card: testCard(), executor: scriptedAgent(new Gates()) });
    jest.spyOn(handler, 'getAgentCard').mockImplementation(() => {
      throw new Error('secret internal detail');
    });
    const logger = recordingLogger();
    const b = await startTestServer({ handler, logger });
    try {
      const res = await fetch(`${b.url}/.well-known/agent-card.json`);
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(text).not.toContain('secret');
      expect(JSON.parse(text).error.code).toBe(500);
      expect(logger.messages('error')).toHaveLength(1);
      expect((await rpc(b.rpcUrl, 'ListTasks', {})).body.result).toBeDefined();
    } finally {
      await b.close();
    }
  });

  it('a listener can be mounted on any node:http server', () => {
    const listener = createA2ARequestListener({ handler: s.handler });
    expect(typeof listener).toBe('function');
  });
});

describe('close()', () => {
  it('ends open SSE streams and keep-alive connections promptly', async () => {
    const s = await startTestServer({ sseHeartbeatMs: 0 });
    const sent = await rpc(s.rpcUrl, 'SendMessage', sendParams('gate g20', {}, { returnImmediately: true }));
    const sub = await rpcStream(s.rpcUrl, 'SubscribeToTask', { id: sent.body.result.task.id });
    const reading = readSse(sub);
    await rpc(s.rpcUrl, 'ListTasks', {}); // leaves an idle keep-alive connection in fetch's pool
    const closed = s.running.close();
    const { events } = await reading; // the stream ends instead of hanging
    expect(events.length).toBeGreaterThanOrEqual(1);
    await closed;
    expect(s.running.server.listening).toBe(false);
    await s.close();
  });

  it('drops connections that never sent a request instead of waiting for the force timeout', async () => {
    const s = await startTestServer({ sseHeartbeatMs: 0 });
    const sent = await rpc(s.rpcUrl, 'SendMessage', sendParams('gate g21', {}, { returnImmediately: true }));
    // A client that cuts a stream and calls again at once makes fetch open a spare connection
    // that carries no request; Node's closeIdleConnections() does not see such sockets.
    const cut = new AbortController();
    const sub = await fetch(s.rpcUrl, {
      method: 'POST',
      signal: cut.signal,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...V },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SubscribeToTask', params: { id: sent.body.result.task.id } }),
    });
    await sub.body!.getReader().read();
    cut.abort();
    await rpc(s.rpcUrl, 'GetTask', { id: sent.body.result.task.id });
    const closed = s.running.close().then(() => 'closed');
    // Without tracking, close() would wait for the 3 s force timer.
    await expect(Promise.race([closed, new Promise((r) => setTimeout(() => r('still open'), 1500))])).resolves.toBe('closed');
    await s.close();
  });
});
