/**
 * The per-address rate limit behind reverse proxies: with `trustedProxies`, the client named
 * by `X-Forwarded-For` (or RFC 7239 `Forwarded`, with `forwardedHeader`) gets a budget of its
 * own on JSON-RPC, REST and WebSocket; from a peer that is not a trusted proxy the header is
 * ignored and every sender shares the peer's budget. The keys are read from every layer.
 */
import { WebSocket } from 'ws';
import { WEBSOCKET_SUBPROTOCOL } from '@a2a-polyglot/client';
import { waitFor } from '@a2a-polyglot/testing';
import { configFromEnv, loadConfig, parseConfigInput, startExecutor, type ExecutorConfigInput, type RunningExecutor } from '../src/index.js';

const POINTS = 2;

async function started(config: ExecutorConfigInput): Promise<RunningExecutor> {
  return startExecutor({
    host: '127.0.0.1',
    port: 0,
    grpcPort: false,
    logLevel: 'error',
    rateLimit: { addressPoints: POINTS, addressWindowSec: 60 },
    ...config,
  });
}

/** HTTP status of one JSON-RPC ListTasks call sent with `headers`. */
async function rpcStatus(executor: RunningExecutor, headers: Record<string, string>): Promise<number> {
  const res = await fetch(`${executor.url}/a2a/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** HTTP status of one REST ListTasks call sent with `headers`. */
async function restStatus(executor: RunningExecutor, headers: Record<string, string>): Promise<number> {
  const res = await fetch(`${executor.url}/a2a/tasks`, { headers: { 'a2a-version': '1.0', ...headers } });
  await res.arrayBuffer();
  return res.status;
}

/** The statuses of `n` calls in a row. */
async function statuses(n: number, call: () => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await call());
  return out;
}

const spent = [...Array(POINTS).fill(200), 429];

describe('behind a trusted proxy (trustedProxies: loopback; the test client is the proxy)', () => {
  let executor: RunningExecutor;
  beforeAll(async () => {
    executor = await started({ trustedProxies: ['loopback'] });
  });
  afterAll(() => executor?.close());

  it('gives two clients with different X-Forwarded-For separate budgets (JSON-RPC and REST)', async () => {
    expect(await statuses(POINTS + 1, () => rpcStatus(executor, { 'x-forwarded-for': '203.0.113.1' }))).toEqual(spent);
    // Another client behind the same proxy still has its whole budget, on either binding.
    expect(await rpcStatus(executor, { 'x-forwarded-for': '203.0.113.2' })).toBe(200);
    expect(await restStatus(executor, { 'x-forwarded-for': '203.0.113.2' })).toBe(200);
    expect(await restStatus(executor, { 'x-forwarded-for': '203.0.113.2' })).toBe(429);
    // A client-written entry before the proxy's does not buy a fresh budget.
    expect(await rpcStatus(executor, { 'x-forwarded-for': '198.51.100.77, 203.0.113.1' })).toBe(429);
  });

  it('charges the WebSocket frames of a client to its forwarded address', async () => {
    const ws = new WebSocket(`${executor.url.replace('http:', 'ws:')}/a2a/ws`, [WEBSOCKET_SUBPROTOCOL], {
      headers: { 'A2A-Version': '1.0', 'X-Forwarded-For': '203.0.113.3' },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      const answers: Array<{ id: number; error?: { code: number } }> = [];
      ws.on('message', (data) => answers.push(JSON.parse(String(data))));
      for (let id = 1; id <= POINTS + 1; id++) ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'ListTasks', params: {} }));
      await waitFor(() => answers.length === POINTS + 1, { timeoutMs: 10_000, what: 'an answer to every frame' });
      const byId = new Map(answers.map((a) => [a.id, a]));
      expect([1, 2, 3].map((id) => byId.get(id)?.error?.code ?? 'ok')).toEqual(['ok', 'ok', -31430]);
    } finally {
      ws.terminate();
    }
    // The proxy's own address (the TCP peer) was not charged for them.
    expect(await rpcStatus(executor, {})).toBe(200);
  });
});

describe('from a peer that is not a trusted proxy (trustedProxies: 10.0.0.0/8)', () => {
  let executor: RunningExecutor;
  beforeAll(async () => {
    executor = await started({ trustedProxies: ['10.0.0.0/8'] });
  });
  afterAll(() => executor?.close());

  it('ignores X-Forwarded-For: every sender spends the peer budget', async () => {
    expect(await rpcStatus(executor, { 'x-forwarded-for': '203.0.113.1' })).toBe(200);
    expect(await rpcStatus(executor, { 'x-forwarded-for': '203.0.113.2' })).toBe(200);
    expect(await restStatus(executor, { 'x-forwarded-for': '203.0.113.3' })).toBe(429);
  });
});

describe('without trustedProxies (the default)', () => {
  let executor: RunningExecutor;
  beforeAll(async () => {
    executor = await started({});
  });
  afterAll(() => executor?.close());

  it('ignores forwarded headers', async () => {
    expect(await rpcStatus(executor, { 'x-forwarded-for': '203.0.113.1' })).toBe(200);
    expect(await rpcStatus(executor, { forwarded: 'for=203.0.113.2' })).toBe(200);
    expect(await rpcStatus(executor, { 'x-forwarded-for': '203.0.113.3' })).toBe(429);
  });
});

describe('Forwarded: for= (forwardedHeader: forwarded, trustedProxies: 1 hop)', () => {
  let executor: RunningExecutor;
  beforeAll(async () => {
    executor = await started({ trustedProxies: 1, forwardedHeader: 'forwarded' });
  });
  afterAll(() => executor?.close());

  it('gives each for= client its own budget, and ignores X-Forwarded-For', async () => {
    expect(await statuses(POINTS + 1, () => rpcStatus(executor, { forwarded: 'for=203.0.113.1;proto=http' }))).toEqual(spent);
    expect(await statuses(POINTS + 1, () => restStatus(executor, { forwarded: 'for="[2001:db8:cafe::17]:4711"' }))).toEqual(spent);
    // The peer's budget is untouched by those, and X-Forwarded-For spends it (it is not read).
    let n = 10;
    expect(await statuses(POINTS + 1, () => rpcStatus(executor, { 'x-forwarded-for': `203.0.113.${n++}` }))).toEqual(spent);
  });
});

describe('trustedProxies and forwardedHeader configuration keys', () => {
  it('are read from the environment and flags: a list, or a hop count', () => {
    expect(configFromEnv({ A2A_TRUSTED_PROXIES: 'loopback, 10.0.0.0/8,' }, '/')).toEqual({ trustedProxies: ['loopback', '10.0.0.0/8'] });
    expect(configFromEnv({ A2A_TRUSTED_PROXIES: '2', A2A_FORWARDED_HEADER: 'forwarded' }, '/')).toEqual({ trustedProxies: 2, forwardedHeader: 'forwarded' });
    const { config } = loadConfig({ argv: ['--trusted-proxies', 'fd00::/8', '--forwarded-header', 'x-forwarded-for'], env: {}, cwd: '/' });
    expect(config.trustedProxies).toEqual(['fd00::/8']);
    expect(config.forwardedHeader).toBe('x-forwarded-for');
    const defaults = loadConfig({ argv: [], env: {}, cwd: '/' }).config;
    expect(defaults.trustedProxies).toEqual([]);
    expect(defaults.forwardedHeader).toBe('x-forwarded-for');
  });

  it('refuses what proxy-addr cannot read, naming the variable or key', () => {
    expect(() => configFromEnv({ A2A_TRUSTED_PROXIES: '10.0.0.300' }, '/')).toThrow(/A2A_TRUSTED_PROXIES must be a hop count/);
    expect(() => configFromEnv({ A2A_FORWARDED_HEADER: 'x-real-ip' }, '/')).toThrow(/A2A_FORWARDED_HEADER must be one of x-forwarded-for, forwarded/);
    expect(() => parseConfigInput({ trustedProxies: ['proxy.internal'] }, '')).toThrow(/trustedProxies/);
    expect(() => parseConfigInput({ trustedProxies: 101 }, '')).toThrow(/trustedProxies/);
  });
});
