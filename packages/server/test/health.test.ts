import { checkReadiness } from '@a2a-polyglot/core';
import { startTestServer, type TestServer } from './helpers.js';

describe('health endpoints', () => {
  let s: TestServer;
  afterEach(() => s?.close());

  it('/healthz answers 200 without credentials or A2A-Version, HEAD too, and refuses POST', async () => {
    s = await startTestServer({ apiKeys: { k: 'alice' } });
    const live = await fetch(`${s.url}/healthz`);
    expect(live.status).toBe(200);
    expect(live.headers.get('cache-control')).toBe('no-store');
    expect(await live.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${s.url}/healthz`, { method: 'HEAD' })).status).toBe(200);
    const post = await fetch(`${s.url}/readyz`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('/readyz is 200 while serving and 503 "draining" once the handler shuts down', async () => {
    s = await startTestServer();
    const ready = await fetch(`${s.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: [] });
    const shutdown = s.handler.shutdown(100);
    const draining = await fetch(`${s.url}/readyz`);
    expect(draining.status).toBe(503);
    expect(await draining.json()).toEqual({ status: 'draining', checks: [] });
    await shutdown;
  });

  it('/readyz reports the failing dependency by name with 503', async () => {
    s = await startTestServer({
      readiness: () =>
        checkReadiness({ draining: () => false, checks: [{ name: 'store', probe: async () => Promise.reject(new Error('connection refused')) }] }),
    });
    const res = await fetch(`${s.url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'not ready', checks: [{ name: 'store', ok: false, error: 'connection refused' }] });
  });

  it('is served at the root only, not under an agent mount', async () => {
    s = await startTestServer({ mounts: [] });
    expect((await fetch(`${s.url}/a2a/healthz`)).status).toBe(404);
  });
});
