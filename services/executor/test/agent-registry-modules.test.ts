/**
 * The agent registry's module policy, against a real PostgreSQL table: a `module` row loads
 * only a file of `agentRegistry.moduleDirs`, only a regular file, within `loadTimeoutMs`, and
 * may not end the process; a card over `maxCardBytes` is not served. Every refused row stays
 * with its own agent, which answers UNAVAILABLE with the reason, while the others serve and
 * later registry changes still apply. The same for a real executor process (the CLI script of
 * the incident, with its shebang, and a named pipe, which only Node's own resolver hands to
 * `require`, where reading it would block the event loop): it keeps running and `/healthz`
 * answers within a second.
 */
import { recordingLogger } from '@a2a-polyglot/testing';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { describeWithPostgres, POSTGRES_URL, uniqueName } from '@a2a-polyglot/testing';
import { json, partsText, postJson, userMessage, V1, waitFor } from './helpers.js';
import { killHard, listeningUrl, spawnExecutor, type ExecutorProcess } from './spawn-executor.js';

jest.setTimeout(30_000);

const LOAD_TIMEOUT_MS = 1500;
const MAX_CARD_BYTES = 4096;

/** A fresh directory with `allowed/` (the policy's directory) and `outside/`, holding the fixture modules. */
function moduleDirs(): { allowed: string; outside: string } {
  const root = mkdtempSync(join(tmpdir(), 'a2a-registry-modules-'));
  const allowed = join(root, 'allowed');
  const outside = join(root, 'outside');
  mkdirSync(allowed);
  mkdirSync(outside);
  const good = "module.exports = { execute: async (c) => c.complete('good: ' + c.text) };\n";
  writeFileSync(join(allowed, 'good.cjs'), good);
  writeFileSync(join(outside, 'good.cjs'), good);
  // What a command-line script does at import when it gets no arguments: usage (left out here), exit 1.
  writeFileSync(join(allowed, 'cli.cjs'), 'process.exit(1);\n');
  // A CLI whose async main fails a moment later and exits from its catch.
  writeFileSync(join(allowed, 'cli-later.cjs'), 'setTimeout(() => process.exit(2), 50);\n');
  writeFileSync(join(allowed, 'hang.cjs'), 'module.exports = () => new Promise(() => {});\n');
  execFileSync('mkfifo', [join(allowed, 'pipe.cjs')]);
  return { allowed, outside };
}

describeWithPostgres('agent registry module policy, in-process', () => {
  const schema = uniqueName('a2a_registry_modules');
  const { allowed, outside } = moduleDirs();
  const logger = recordingLogger();
  let pg: Client;
  let running: RunningExecutor;

  beforeAll(async () => {
    pg = new Client({ connectionString: POSTGRES_URL });
    await pg.connect();
    running = await startExecutor(
      {
        host: '127.0.0.1',
        port: 0,
        grpcPort: 0,
        shutdownGraceMs: 100,
        agents: [{ id: 'main', handler: 'demo' }],
        demo: { chunkDelayMs: 0 },
        agentRegistry: { url: POSTGRES_URL!, schema, resyncMs: 0, moduleDirs: [allowed], loadTimeoutMs: LOAD_TIMEOUT_MS, maxCardBytes: MAX_CARD_BYTES },
      },
      { logger, env: {} },
    );
  });
  afterAll(async () => {
    await running?.close();
    await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pg.end();
  });

  const insert = (id: string, handler: string, settings: Record<string, unknown> = {}, card: Record<string, unknown> = {}) =>
    pg.query(`INSERT INTO "${schema}".a2a_agents (id, handler, settings, card) VALUES ($1, $2, $3, $4)`, [id, handler, settings, card]);
  const cardStatus = async (id: string) => (await fetch(`${running.url}/agents/${id}/.well-known/agent-card.json`)).status;
  const send = (id: string, text = 'hi') => postJson(`${running.url}/agents/${id}/a2a/message:send`, { message: userMessage(text) }, V1);
  /** Waits until agent `id` is mounted, then sends it a message and returns the answer's status and body. */
  const answer = async (id: string, timeoutMs = 2000) => {
    await waitFor(async () => (await cardStatus(id)) === 200, { timeoutMs, what: `agent ${id} mounted` });
    const res = await send(id);
    return { status: res.status, body: await json(res) };
  };
  const expectUnavailable = async (id: string, reason: RegExp, timeoutMs?: number) => {
    const { status, body } = await answer(id, timeoutMs);
    expect(status).toBe(503);
    expect(body.error.status).toBe('UNAVAILABLE');
    expect(body.error.message).toMatch(reason);
    expect(body.error.message).not.toContain('\n');
  };
  const servesMain = async () => {
    const sent = await json(await send('main', 'still here'));
    expect(partsText(sent.task.artifacts[0].parts)).toContain('still here');
  };

  it('refuses a module outside moduleDirs: its agent answers UNAVAILABLE with the reason, a module inside serves, so do the others', async () => {
    await insert('outsider', 'module', { path: join(outside, 'good.cjs') });
    await insert('insider', 'module', { path: join(allowed, 'good.cjs') });
    await expectUnavailable('outsider', /refused: its file is outside the directories of agentRegistry\.moduleDirs/);
    const inside = await answer('insider');
    expect(inside.status).toBe(200);
    expect(JSON.stringify(inside.body)).toContain('good: hi');
    // The stand-in's public card says it is unavailable, not why (the reason is for admitted callers).
    const card = await json(await fetch(`${running.url}/agents/outsider/.well-known/agent-card.json`, { headers: V1 }));
    expect(card.description).toMatch(/^Unavailable/);
    expect(JSON.stringify(card)).not.toContain('moduleDirs');
    await servesMain();
  });

  it('survives a command-line script in an allowed directory that calls process.exit at import or from a timer it set', async () => {
    await insert('cli', 'module', { path: join(allowed, 'cli.cjs') });
    await insert('cli-later', 'module', { path: join(allowed, 'cli-later.cjs') });
    await expectUnavailable('cli', /called process\.exit\(1\) while loading/);
    await expectUnavailable('cli-later', /exports no agent/);
    await waitFor(() => logger.lines.some((l) => l.fields.exitCode === 2 && /process\.exit .*ignored/.test(l.msg)), {
      what: 'the late process.exit(2) logged as ignored',
    });
    await servesMain();
  });

  it('refuses a named pipe as not a regular file (the process suite below checks that the event loop keeps running)', async () => {
    await insert('pipe', 'module', { path: join(allowed, 'pipe.cjs') });
    await expectUnavailable('pipe', /is not a regular file: .* is a named pipe/);
    await servesMain();
  });

  it('gives up on a factory that never resolves at loadTimeoutMs, and applies later changes meanwhile', async () => {
    const inserted = Date.now();
    await insert('stuck', 'module', { path: join(allowed, 'hang.cjs') });
    await insert('after', 'demo', {}, { name: 'After' });
    await waitFor(async () => (await cardStatus('after')) === 200, { timeoutMs: 1000, what: 'agent after served while stuck loads' });
    expect(Date.now() - inserted).toBeLessThan(LOAD_TIMEOUT_MS);
    expect(await cardStatus('stuck')).toBe(404);
    await expectUnavailable('stuck', /did not load within agentRegistry\.loadTimeoutMs \(1500 ms\)/, LOAD_TIMEOUT_MS + 2000);
    expect(Date.now() - inserted).toBeGreaterThanOrEqual(LOAD_TIMEOUT_MS);
    await pg.query(`DELETE FROM "${schema}".a2a_agents WHERE id IN ('stuck', 'after')`);
    await waitFor(async () => (await cardStatus('stuck')) === 404 && (await cardStatus('after')) === 404, { timeoutMs: 1000, what: 'both removed' });
  });

  it('refuses a card over maxCardBytes without reading it', async () => {
    await insert('big', 'demo', {}, { name: 'Big', description: 'x'.repeat(MAX_CARD_BYTES) });
    await expectUnavailable('big', /its card is \d+ bytes, over agentRegistry\.maxCardBytes \(4096\)/);
    const card = await json(await fetch(`${running.url}/agents/big/.well-known/agent-card.json`, { headers: V1 }));
    expect(card.name).toBe('big');
    await insert('small', 'demo', {}, { name: 'Small', description: 'x'.repeat(MAX_CARD_BYTES - 100) });
    expect((await answer('small')).status).toBe(200);
  });

  it('refuses every module row when neither moduleDirs nor modulePackages is set', async () => {
    const other = await startExecutor(
      {
        host: '127.0.0.1',
        port: 0,
        grpcPort: false,
        agents: [{ id: 'main', handler: 'demo' }],
        agentRegistry: { url: POSTGRES_URL!, schema, resyncMs: 0 },
      },
      { logger: recordingLogger(), env: {} },
    );
    try {
      await waitFor(async () => (await fetch(`${other.url}/agents/insider/.well-known/agent-card.json`)).status === 200, { what: 'insider mounted' });
      const res = await postJson(`${other.url}/agents/insider/a2a/message:send`, { message: userMessage('hi') }, V1);
      expect(res.status).toBe(503);
      expect((await json(res)).error.message).toMatch(/loads modules only from agentRegistry\.moduleDirs or agentRegistry\.modulePackages, and neither is set/);
    } finally {
      await other.close();
    }
  });
});

describeWithPostgres('agent registry module policy, an executor process', () => {
  const schema = uniqueName('a2a_registry_modules_proc');
  const { allowed, outside } = moduleDirs();
  let pg: Client;
  let executor: ExecutorProcess;
  let url: string;

  beforeAll(async () => {
    pg = new Client({ connectionString: POSTGRES_URL });
    await pg.connect();
    // The incident: an installed command-line script, shebang and all.
    writeFileSync(join(outside, 'tool.js'), "#!/usr/bin/env node\nconsole.error('usage: tool <file>');\nprocess.exit(1);\n");
    writeFileSync(join(allowed, 'tool.js'), "#!/usr/bin/env node\nconsole.error('usage: tool <file>');\nprocess.exit(1);\n");
    const dir = mkdtempSync(join(tmpdir(), 'a2a-registry-modules-config-'));
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ agents: [{ id: 'main', handler: 'demo' }] }));
    executor = spawnExecutor({
      PORT: '0',
      GRPC_PORT: 'off',
      A2A_CONFIG: config,
      A2A_AGENT_REGISTRY_URL: POSTGRES_URL!,
      A2A_AGENT_REGISTRY_SCHEMA: schema,
      A2A_AGENT_REGISTRY_RESYNC_MS: '0',
      A2A_AGENT_REGISTRY_MODULE_DIRS: allowed,
      A2A_SHUTDOWN_GRACE_MS: '100',
    });
    url = await listeningUrl(executor);
  });
  afterAll(async () => {
    await killHard(executor);
    await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pg.end();
  });

  it('keeps running and answering /healthz through a CLI script outside and inside moduleDirs and a named pipe', async () => {
    for (const [id, path, reason] of [
      ['tool', join(outside, 'tool.js'), /outside the directories of agentRegistry\.moduleDirs/],
      ['tool2', join(allowed, 'tool.js'), /called process\.exit\(1\) while loading/],
      ['pipe', join(allowed, 'pipe.cjs'), /is a named pipe/],
    ] as const) {
      await pg.query(`INSERT INTO "${schema}".a2a_agents (id, handler, settings) VALUES ($1, 'module', $2)`, [id, { path }]);
      await waitFor(async () => (await fetch(`${url}/agents/${id}/.well-known/agent-card.json`, { signal: AbortSignal.timeout(1000) })).status === 200, {
        timeoutMs: 2000,
        what: `${id} mounted`,
      });
      const res = await postJson(`${url}/agents/${id}/a2a/message:send`, { message: userMessage('hi') }, V1);
      expect(res.status).toBe(503);
      expect((await json(res)).error.message).toMatch(reason);
      expect((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) })).status).toBe(200);
    }
    expect(executor.process.exitCode).toBeNull();
  });
});

describeWithPostgres('agent registry module rows of TypeScript agents with their own card, an executor process', () => {
  const schema = uniqueName('a2a_registry_ts_modules');
  const { allowed } = moduleDirs();
  let pg: Client;
  let executor: ExecutorProcess;
  let url: string;

  beforeAll(async () => {
    pg = new Client({ connectionString: POSTGRES_URL });
    await pg.connect();
    writeFileSync(
      join(allowed, 'typed.ts'),
      `const card: { name: string; skills: { id: string; name: string; description: string }[] } = { name: 'Typed Agent', skills: [{ id: 'typed', name: 'Typed', description: 'Answers in TypeScript' }] };
export default { card, async execute(ctx: { text: string; reply(text: string): void }): Promise<void> { ctx.reply('typed: ' + ctx.text); } };
`,
    );
    const dir = mkdtempSync(join(tmpdir(), 'a2a-registry-ts-config-'));
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ agents: [{ id: 'main', handler: 'demo' }] }));
    executor = spawnExecutor({
      PORT: '0',
      GRPC_PORT: 'off',
      A2A_CONFIG: config,
      A2A_AGENT_REGISTRY_URL: POSTGRES_URL!,
      A2A_AGENT_REGISTRY_SCHEMA: schema,
      A2A_AGENT_REGISTRY_RESYNC_MS: '0',
      A2A_AGENT_REGISTRY_MODULE_DIRS: allowed,
    });
    url = await listeningUrl(executor);
  });
  afterAll(async () => {
    await killHard(executor);
    await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pg.end();
  });

  it("loads a .ts module row through tsx and serves the module's card under the row's card keys", async () => {
    const path = join(allowed, 'typed.ts');
    await pg.query(`INSERT INTO "${schema}".a2a_agents (id, handler, settings, card) VALUES ('typed', 'module', $1, $2)`, [
      { path },
      { description: 'From the row.' },
    ]);
    let card: any;
    await waitFor(
      async () => {
        card = await json(await fetch(`${url}/agents/typed/.well-known/agent-card.json`, { headers: V1 }));
        return card.name === 'Typed Agent';
      },
      { timeoutMs: 10_000, what: 'the typed agent served with its own card' },
    );
    expect(card.description).toBe('From the row.');
    expect(card.skills.map((s: any) => s.id)).toEqual(['typed']);
    const res = await postJson(`${url}/agents/typed/a2a/message:send`, { message: userMessage('hi') }, V1);
    expect(res.status).toBe(200);
    expect(JSON.stringify(await json(res))).toContain('typed: hi');
  });
});
