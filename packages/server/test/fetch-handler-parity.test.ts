/**
 * What the fetch handler serves besides the bindings and the card, as the node listener does:
 * the health probes, `/metrics`, CORS (preflight and headers), the browser Host and Origin
 * checks, and the listings, in process with `new Request`, under a mount path and through the
 * Lambda adapter. Then parity: the same requests against `startA2AServer` (a real socket) and
 * `createA2AFetchHandler` (in process) with the same options get the same status, headers
 * and bodies.
 */
import { request as httpRequest } from 'node:http';
import { checkReadiness, RequestHandler } from '@a2a-polyglot/core';
import { Gates, scriptedAgent } from '@a2a-polyglot/testing';
import { type A2AFetchHandlerOptions, createA2AFetchHandler, createA2ALambdaHandler, type RunningA2AServer, startA2AServer } from '../src/index.js';
import { testCard, V } from './helpers.js';

const ORIGIN = 'http://agents.example';
const APP = 'https://app.test';
const METRICS = async () => ({ contentType: 'text/plain; version=0.0.4', body: '# HELP up 1\nup 1\n' });
const listTasks = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} });

const gates = new Gates();
const handler = new RequestHandler({ card: testCard({ name: 'parity agent' }), executor: scriptedAgent(gates) });
afterAll(async () => {
  gates.openAll();
  await handler.shutdown(100);
});

describe('createA2AFetchHandler: what the node listener serves besides the bindings', () => {
  const fetchHandler = createA2AFetchHandler({
    handler,
    mountPath: '/agent',
    cors: { origins: [APP] },
    metrics: METRICS,
    agentIndexPath: '/agents',
    apiCatalog: true,
  });
  const call = (path: string, init: RequestInit = {}) => fetchHandler(new Request(`${ORIGIN}${path}`, init));

  it('answers /healthz and /readyz under its mount path, HEAD without a body, and refuses POST', async () => {
    const live = await call('/agent/healthz');
    expect([live.status, live.headers.get('cache-control'), await live.json()]).toEqual([200, 'no-store', { status: 'ok' }]);
    const ready = await call('/agent/readyz');
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', checks: [] }]);
    const head = await call('/agent/healthz', { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, '15', '']);
    const post = await call('/agent/readyz', { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('reports a failing readiness check with 503', async () => {
    const failing = createA2AFetchHandler({
      handler,
      readiness: () => checkReadiness({ draining: () => false, checks: [{ name: 'store', probe: () => Promise.reject(new Error('down')) }] }),
    });
    const res = await failing(new Request(`${ORIGIN}/readyz`));
    expect([res.status, await res.json()]).toEqual([503, { status: 'not ready', checks: [{ name: 'store', ok: false, error: 'down' }] }]);
  });

  it('serves /metrics from the source it was given, and nothing there without one', async () => {
    const res = await call('/agent/metrics');
    expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control'), await res.text()]).toEqual([
      200,
      'text/plain; version=0.0.4',
      'no-store',
      '# HELP up 1\nup 1\n',
    ]);
    const without = createA2AFetchHandler({ handler });
    expect((await without(new Request(`${ORIGIN}/metrics`))).status).toBe(404);
  });

  it('answers a CORS preflight of a listed origin, and puts the CORS headers on a JSON-RPC answer', async () => {
    const preflight = await call('/agent/a2a/rpc', { method: 'OPTIONS', headers: { origin: APP, 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(APP);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE, OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('a2a-version');
    expect(preflight.headers.get('vary')).toBe('Origin');
    const res = await call('/agent/a2a/rpc', { method: 'POST', headers: { 'content-type': 'application/json', origin: APP, ...V }, body: listTasks });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-expose-headers')).toBe('a2a-extensions, x-a2a-extensions');
    expect(((await res.json()) as any).result.tasks).toEqual([]);
  });

  it('refuses a page of another origin with 403 in each binding’s terms, and lets any origin read the card', async () => {
    const evil = { origin: 'https://evil.test' };
    const rpc = await call('/agent/a2a/rpc', { method: 'POST', headers: { 'content-type': 'application/json', ...evil, ...V }, body: listTasks });
    expect(rpc.status).toBe(403);
    expect(await rpc.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -31403 } });
    const listed = await call('/agent/a2a/tasks', { headers: { ...evil, ...V } });
    expect(listed.status).toBe(403);
    expect(((await listed.json()) as any).error.details[0].reason).toBe('PERMISSION_DENIED');
    const card = await call('/agent/.well-known/agent-card.json', { headers: evil });
    expect([card.status, card.headers.get('access-control-allow-origin')]).toEqual([200, '*']);
    // Without CORS the Origin check stays, and no CORS header is sent.
    const off = createA2AFetchHandler({ handler, cors: false });
    expect((await off(new Request(`${ORIGIN}/a2a/tasks`, { headers: { ...evil, ...V } }))).status).toBe(403);
    const own = await off(new Request(`${ORIGIN}/a2a/tasks`, { headers: { origin: ORIGIN, ...V } }));
    expect([own.status, own.headers.get('access-control-allow-origin')]).toEqual([200, null]);
  });

  it('checks the Host when allowedHosts is set (the runtime does not say where a request arrived)', async () => {
    const checked = createA2AFetchHandler({ handler, allowedHosts: ['agents.example'] });
    expect((await checked(new Request(`${ORIGIN}/a2a/tasks`, { headers: V }))).status).toBe(200);
    const rebound = await checked(new Request('http://attacker.example/a2a/tasks', { headers: V }));
    expect(rebound.status).toBe(403);
    expect(((await rebound.json()) as any).error.message).toMatch(/Host attacker\.example is not served here/);
    expect((await fetchHandler(new Request('http://attacker.example/agent/a2a/tasks', { headers: V }))).status).toBe(200);
  });

  it('lists its one agent at agentIndexPath and in the API catalog, URLs under the mount path', async () => {
    const index = await call('/agent/agents', { headers: { origin: 'https://evil.test' } });
    expect(index.status).toBe(200);
    expect(index.headers.get('access-control-allow-origin')).toBe('*');
    expect(await index.json()).toEqual({ agents: [{ id: '', name: 'parity agent', cardUrl: `${ORIGIN}/agent/.well-known/agent-card.json`, default: true }] });
    const catalog = await call('/agent/.well-known/api-catalog');
    expect(catalog.headers.get('link')).toBe(`<${ORIGIN}/agent/.well-known/api-catalog>; rel="api-catalog"`);
    const { linkset }: any = await catalog.json();
    expect(linkset[0]).toEqual({ anchor: `${ORIGIN}/agent/.well-known/api-catalog`, item: [{ href: `${ORIGIN}/agent/a2a`, title: 'parity agent' }] });
    expect(linkset[1]['service-desc'][0].href).toBe(`${ORIGIN}/agent/.well-known/agent-card.json`);
    expect((await call('/agent/agents', { method: 'POST' })).status).toBe(405);
  });

  it('serves the probes under a Lambda stage too', async () => {
    const lambda = createA2ALambdaHandler({ handler });
    const res = await lambda({
      version: '2.0',
      rawPath: '/dev/healthz',
      headers: { host: 'api.example.com', 'x-forwarded-proto': 'https' },
      requestContext: { domainName: 'api.example.com', stage: 'dev', http: { method: 'GET' } },
    });
    expect([res.statusCode, res.headers['cache-control'], JSON.parse(res.body)]).toEqual([200, 'no-store', { status: 'ok' }]);
  });
});

/** One answer, reduced to what both runtimes must agree on. */
interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | undefined>;
  readonly body: unknown;
}

/** The headers compared (not `date`, `connection`, nor `last-modified`: each clock has its own start). */
const COMPARED = [
  'content-type',
  'cache-control',
  'allow',
  'vary',
  'etag',
  'link',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
];

interface Probe {
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

function parsed(text: string): unknown {
  try {
    return text === '' ? '' : JSON.parse(text);
  } catch {
    return text;
  }
}

function reduce(status: number, header: (name: string) => string | undefined, text: string, method: string): Answer {
  const headers: Record<string, string | undefined> = {};
  for (const name of COMPARED) headers[name] = header(name);
  // A HEAD tells the length of the body it does not send.
  if (method === 'HEAD') headers['content-length'] = header('content-length');
  return { status, headers, body: parsed(text) };
}

/** A request over a real socket, with full control over Host (fetch sets it itself). */
function overSocket(base: string, probe: Probe): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${probe.path}`, { method: probe.method, headers: probe.headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const value = (name: string) => {
          const v = res.headers[name];
          return Array.isArray(v) ? v.join(', ') : v;
        };
        resolve(reduce(res.statusCode ?? 0, value, text, probe.method));
      });
    });
    req.on('error', reject);
    req.end(probe.body);
  });
}

/** The same request in process; its URL carries the Host the socket request names. */
async function inProcess(fetchHandler: (request: Request) => Promise<Response>, host: string, probe: Probe): Promise<Answer> {
  const { host: named, ...headers } = probe.headers ?? {};
  const res = await fetchHandler(new Request(`http://${named ?? host}${probe.path}`, { method: probe.method, headers, body: probe.body }));
  return reduce(res.status, (name) => res.headers.get(name) ?? undefined, await res.text(), probe.method);
}

describe('parity: the node listener and the fetch handler answer the same requests the same way', () => {
  const options: A2AFetchHandlerOptions = {
    handler,
    cors: { origins: [APP] },
    allowedHosts: ['agents.test'],
    metrics: METRICS,
    agentIndexPath: '/agents',
    apiCatalog: true,
  };
  let running: RunningA2AServer;
  let host: string;
  beforeAll(async () => {
    running = await startA2AServer(options);
    host = new URL(running.url).host;
  });
  afterAll(() => running.close());

  const json = { 'content-type': 'application/json', ...V };
  const probes: Probe[] = [
    { method: 'GET', path: '/healthz' },
    { method: 'HEAD', path: '/healthz' },
    { method: 'GET', path: '/readyz' },
    { method: 'POST', path: '/readyz' },
    { method: 'GET', path: '/metrics' },
    { method: 'HEAD', path: '/metrics' },
    { method: 'GET', path: '/.well-known/agent-card.json', headers: { origin: 'https://evil.test' } },
    { method: 'HEAD', path: '/.well-known/agent-card.json', headers: { 'a2a-version': '0.3' } },
    { method: 'OPTIONS', path: '/a2a/rpc', headers: { origin: APP, 'access-control-request-method': 'POST' } },
    { method: 'POST', path: '/a2a/rpc', headers: { ...json, origin: APP }, body: listTasks },
    { method: 'POST', path: '/a2a/rpc', headers: { ...json, origin: 'https://evil.test' }, body: listTasks },
    { method: 'GET', path: '/a2a/tasks', headers: { ...V, origin: 'https://evil.test' } },
    { method: 'GET', path: '/a2a/tasks', headers: { ...V, host: 'attacker.example' } },
    { method: 'GET', path: '/a2a/tasks', headers: { ...V, host: 'agents.test' } },
    { method: 'GET', path: '/agents', headers: { origin: 'https://evil.test' } },
    { method: 'POST', path: '/agents' },
    { method: 'GET', path: '/.well-known/api-catalog' },
    { method: 'GET', path: '/nothing' },
  ];

  it.each(probes.map((p) => [`${p.method} ${p.path} ${JSON.stringify(p.headers ?? {})}`, p] as const))('%s', async (_name, probe) => {
    const fetchHandler = createA2AFetchHandler(options);
    const node = await overSocket(running.url, { ...probe, headers: { host, ...probe.headers } });
    const fetched = await inProcess(fetchHandler, host, probe);
    expect(fetched).toEqual(node);
  });
});
