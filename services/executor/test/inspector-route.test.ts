/**
 * `/inspector` on the executor: served by default on loopback, off elsewhere unless enabled,
 * and switchable from every configuration layer. (The page itself is driven in
 * inspector-browser.test.ts.)
 */
import { silentLogger } from '@a2a-polyglot/core';
import { inspectorEnabled, loadConfig } from '../src/config.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { waitFor } from '@a2a-polyglot/testing';
import { listeningUrl, spawnExecutor } from './spawn-executor.js';

const started: RunningExecutor[] = [];
async function start(config: Parameters<typeof startExecutor>[0] = {}): Promise<RunningExecutor> {
  const running = await startExecutor({ host: '127.0.0.1', port: 0, grpcPort: false, ...config }, { logger: silentLogger });
  started.push(running);
  return running;
}
afterAll(async () => {
  await Promise.all(started.splice(0).map((r) => r.close()));
});

describe('/inspector', () => {
  jest.setTimeout(30_000);

  it('serves the page, its script and style on a loopback listener by default', async () => {
    const running = await start();
    const page = await fetch(`${running.url}/inspector`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await page.text();
    expect(html).toContain('<script src="/inspector/inspector.js" defer></script>');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//); // nothing from a CDN: works offline
    const script = await fetch(`${running.url}/inspector/inspector.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain('A2A-Version');
    expect((await fetch(`${running.url}/inspector/inspector.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await fetch(`${running.url}/inspector/`)).status).toBe(200);
    const post = await fetch(`${running.url}/inspector`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('is not served when turned off', async () => {
    const running = await start({ inspector: false });
    expect((await fetch(`${running.url}/inspector`)).status).toBe(404);
    expect((await fetch(`${running.url}/.well-known/agent-card.json`)).status).toBe(200);
  });

  it('defaults to on exactly for loopback hosts; the setting wins either way', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(inspectorEnabled({ host })).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.1.2.3', 'agents.example.com']) expect(inspectorEnabled({ host })).toBe(false);
    expect(inspectorEnabled({ host: '0.0.0.0', inspector: true })).toBe(true);
    expect(inspectorEnabled({ host: '127.0.0.1', inspector: false })).toBe(false);
  });

  it('is set by A2A_INSPECTOR and --inspector (flags over environment)', () => {
    expect(loadConfig({ argv: [], env: {} }).config.inspector).toBeUndefined();
    expect(loadConfig({ argv: [], env: { A2A_INSPECTOR: 'on' } }).config.inspector).toBe(true);
    expect(loadConfig({ argv: ['--inspector', 'false'], env: { A2A_INSPECTOR: 'on' } }).config.inspector).toBe(false);
    expect(() => loadConfig({ argv: [], env: { A2A_INSPECTOR: 'maybe' } })).toThrow('Invalid configuration: A2A_INSPECTOR must be true or false (got "maybe")');
  });

  it('the service says where the inspector is and serves it (a real process, from sources)', async () => {
    const child = spawnExecutor({ PORT: '0', GRPC_PORT: 'off' });
    try {
      const url = await listeningUrl(child);
      await waitFor(() => child.stdout.includes(`Inspector: open ${url}/inspector in a browser`), { what: 'the inspector line' });
      const page = await fetch(`${url}/inspector/inspector.js`);
      expect(page.status).toBe(200);
    } finally {
      child.process.kill('SIGTERM');
      await child.exited;
    }
  });
});
