/**
 * `cors.origins` and `allowedHosts`: read from every configuration layer, normalized, checked,
 * and handed to the listener (a request with a Host or Origin they do not allow gets 403).
 */
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger } from '@a2a-polyglot/core';
import { ConfigError, loadConfig } from '../src/config.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';

const cwd = tmpdir();

function load(argv: string[] = [], env: Record<string, string> = {}, file?: unknown) {
  const args = [...argv];
  if (file !== undefined) {
    const path = join(mkdtempSync(join(tmpdir(), 'executor-browser-')), 'config.json');
    writeFileSync(path, JSON.stringify(file));
    args.push('--config', path);
  }
  return loadConfig({ argv: args, env, cwd }).config;
}

function configError(argv: string[], env: Record<string, string> = {}, file?: unknown): string {
  try {
    load(argv, env, file);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

/** The status of GET `path` sent with these headers (fetch sets Host itself). */
function status(url: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { headers: { 'a2a-version': '1.0', ...headers }, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('cors.origins and allowedHosts', () => {
  it('default to no other origin and no allow-list (only loopback connections are host-checked)', () => {
    expect(load()).toMatchObject({ cors: { origins: [] }, allowedHosts: undefined });
  });

  it('are read from the file, the environment and flags (comma-separated), later layers winning, normalized', () => {
    const file = { cors: { origins: ['https://App.example.com/'] }, allowedHosts: ['Agents.Example.com'] };
    expect(load([], {}, file)).toMatchObject({ cors: { origins: ['https://app.example.com'] }, allowedHosts: ['agents.example.com'] });
    const env = { A2A_CORS_ORIGINS: 'http://127.0.0.1:3000, https://b.example:8443', A2A_ALLOWED_HOSTS: '.corp.example,agents.lan' };
    expect(load([], env, file)).toMatchObject({
      cors: { origins: ['http://127.0.0.1:3000', 'https://b.example:8443'] },
      allowedHosts: ['.corp.example', 'agents.lan'],
    });
    expect(load(['--cors-origins', '*', '--allowed-hosts=*'], env)).toMatchObject({ cors: { origins: ['*'] }, allowedHosts: ['*'] });
    expect(load(['--allowed-hosts', ''], env).allowedHosts).toEqual([]);
  });

  it('say what is wrong with an origin that has a path or another scheme, and with a host that has a port', () => {
    expect(configError([], {}, { cors: { origins: ['https://app.example.com/ui'] } })).toMatch(/cors\.origins\[0\] must be an origin such as/);
    expect(configError([], { A2A_CORS_ORIGINS: 'chrome-extension://abc' })).toMatch(/A2A_CORS_ORIGINS.*must be an origin such as/);
    expect(configError(['--allowed-hosts', 'agents.example.com:8080'])).toMatch(/--allowed-hosts.*must be a host name such as/);
    expect(configError([], {}, { cors: { origin: ['https://a.example'] } })).toMatch(/unknown key cors\.origin \(did you mean cors\.origins\?\)/);
  });
});

describe('an executor with them', () => {
  const started: RunningExecutor[] = [];
  const start = async (config: Parameters<typeof startExecutor>[0]) => {
    const running = await startExecutor({ host: '127.0.0.1', port: 0, grpcPort: false, ...config }, { logger: silentLogger });
    started.push(running);
    return running;
  };
  afterAll(() => Promise.all(started.splice(0).map((r) => r.close())));

  it('refuses a foreign Host and Origin by default, and accepts the configured ones and the publicBaseUrl host', async () => {
    const plain = await start({});
    expect(await status(plain.url, '/a2a/tasks', { host: 'attacker.example' })).toBe(403);
    expect(await status(plain.url, '/inspector', { host: 'attacker.example' })).toBe(403);
    expect(await status(plain.url, '/a2a/tasks', { origin: 'http://127.0.0.1:1' })).toBe(403);
    expect(await status(plain.url, '/a2a/tasks', { host: `localhost:${new URL(plain.url).port}` })).toBe(200);

    const configured = await start({ publicBaseUrl: 'https://agents.example.com', allowedHosts: ['agents.lan'], cors: { origins: ['http://127.0.0.1:1'] } });
    for (const host of ['agents.lan:8080', 'agents.example.com']) expect(await status(configured.url, '/a2a/tasks', { host })).toBe(200);
    expect(await status(configured.url, '/a2a/tasks', { host: 'attacker.example' })).toBe(403);
    expect(await status(configured.url, '/a2a/tasks', { origin: 'http://127.0.0.1:1' })).toBe(200);
  });

  it('applies them to mounted agents too', async () => {
    const mounted = await start({ agents: [{ id: 'echo', handler: 'demo' }], allowedHosts: ['agents.lan'] });
    expect(await status(mounted.url, '/agents/echo/a2a/tasks', { host: 'agents.lan' })).toBe(200);
    expect(await status(mounted.url, '/agents/echo/a2a/tasks', { host: 'attacker.example' })).toBe(403);
    expect(await status(mounted.url, '/agents/echo/a2a/tasks', { origin: 'https://evil.example' })).toBe(403);
  });
});
