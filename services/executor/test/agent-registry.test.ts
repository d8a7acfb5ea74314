/**
 * The agent registry in PostgreSQL (`agentRegistry`): two running executor instances on one
 * table. An inserted row is served by both within a second (NOTIFY, no resync), a deleted one
 * disappears from both, a disabled one is not served, a bad row answers UNAVAILABLE with the
 * reason while the others serve, an agent removed with a running task fails that task visibly after the grace period,
 * and a change written without a notification (triggers off) arrives through the periodic
 * resync. The same insert and delete are also checked on two executor processes configured
 * through the environment (A2A_AGENT_REGISTRY_*).
 */
import { WEBSOCKET_BINDING } from '@a2a-polyglot/client';
import { A2AErrorCode, silentLogger } from '@a2a-polyglot/core';
import { GrpcTransport } from '@a2a-polyglot/client/grpc';
import { Role } from '@a2a-polyglot/model';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { describeWithPostgres, POSTGRES_URL, uniqueName } from '@a2a-polyglot/testing';
import { json, partsText, postJson, readSse, userMessage, V1, waitFor } from './helpers.js';
import { killHard, listeningUrl, spawnExecutor, type ExecutorProcess } from './spawn-executor.js';

jest.setTimeout(30_000);

describeWithPostgres('agent registry in PostgreSQL, two instances', () => {
  const schema = uniqueName('a2a_registry');
  const instances: RunningExecutor[] = [];
  let pg: Client;

  async function start(resyncMs: number): Promise<RunningExecutor> {
    const running = await startExecutor(
      {
        host: '127.0.0.1',
        port: 0,
        grpcPort: 0,
        shutdownGraceMs: 300,
        demo: { chunkDelayMs: 0 },
        agents: [{ id: 'main', handler: 'demo', name: 'Main' }],
        agentRegistry: { url: POSTGRES_URL!, schema, resyncMs },
      },
      { logger: silentLogger, env: {} },
    );
    instances.push(running);
    return running;
  }

  let a: RunningExecutor;
  let b: RunningExecutor;
  beforeAll(async () => {
    pg = new Client({ connectionString: POSTGRES_URL });
    await pg.connect();
    // No periodic resync: whatever they pick up, they got from a notification.
    [a, b] = await Promise.all([start(0), start(0)]);
  });
  afterAll(async () => {
    await Promise.all(instances.map((r) => r.close()));
    await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pg.end();
  });

  const insert = (id: string, handler: string, card: Record<string, unknown> = {}, settings: Record<string, unknown> = {}, enabled = true) =>
    pg.query(`INSERT INTO "${schema}".a2a_agents (id, handler, settings, card, enabled) VALUES ($1, $2, $3, $4, $5)`, [id, handler, settings, card, enabled]);
  const cardStatus = async (running: RunningExecutor, id: string) => (await fetch(`${running.url}/agents/${id}/.well-known/agent-card.json`)).status;
  /** Waits until agent `id` is (or is not) served by `running`, failing after `timeoutMs`. */
  const served = (running: RunningExecutor, id: string, expected: boolean, timeoutMs = 1000) =>
    waitFor(async () => (await cardStatus(running, id)) === (expected ? 200 : 404), {
      timeoutMs,
      what: `agent ${id} ${expected ? '' : 'not '}served at ${running.url}`,
    });

  it('serves an inserted agent on both instances within a second, on every binding, and drops it on delete', async () => {
    const inserted = Date.now();
    await insert('helper', 'demo', { name: 'Helper', description: 'From the registry' });
    await Promise.all([served(a, 'helper', true), served(b, 'helper', true)]);
    const tookMs = Date.now() - inserted;
    expect(tookMs).toBeLessThan(1000);

    for (const running of [a, b]) {
      const card = await json(await fetch(`${running.url}/agents/helper/.well-known/agent-card.json`, { headers: V1 }));
      expect(card.name).toBe('Helper');
      expect(card.supportedInterfaces.map((i: any) => i.protocolBinding)).toEqual(['JSONRPC', 'HTTP+JSON', WEBSOCKET_BINDING, 'GRPC', 'JSONRPC', 'HTTP+JSON']);
      expect((await json(await fetch(`${running.url}/agents`))).agents.map((x: any) => x.id)).toEqual(['main', 'helper']);
      const sent = await json(await postJson(`${running.url}/agents/helper/a2a/message:send`, { message: userMessage('hi registry') }, V1));
      expect(partsText(sent.task.artifacts[0].parts)).toContain('hi registry');
      const grpc = new GrpcTransport({ url: running.grpc!.url });
      try {
        const message = { messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: 'text' as const, value: 'hi grpc' } }] };
        const viaGrpc: any = await grpc.sendMessage({ message, tenant: 'helper' });
        expect(viaGrpc.payload.value.id).toBeDefined();
      } finally {
        grpc.close();
      }
    }

    const deleted = Date.now();
    await pg.query(`DELETE FROM "${schema}".a2a_agents WHERE id = 'helper'`);
    await Promise.all([served(a, 'helper', false), served(b, 'helper', false)]);
    expect(Date.now() - deleted).toBeLessThan(1000);
    expect((await json(await fetch(`${a.url}/agents`))).agents.map((x: any) => x.id)).toEqual(['main']);
    const grpc = new GrpcTransport({ url: a.grpc!.url });
    try {
      const message = { messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: 'text' as const, value: 'anyone?' } }] };
      await expect(grpc.sendMessage({ message }, { headers: { 'a2a-agent': 'helper' } })).rejects.toMatchObject({ code: A2AErrorCode.InvalidParams });
    } finally {
      grpc.close();
    }
  });

  it('hears of changes again after its listening connection was killed', async () => {
    // Only this suite's listeners: their last statement is the LISTEN on this schema's channel.
    const { rowCount } = await pg.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1', [`LISTEN "a2a_agents:${schema}"`]);
    expect(rowCount).toBe(2);
    await insert('survivor', 'demo');
    // Reconnecting waits 1 s, then re-reads the table (the insert was not heard).
    await Promise.all([served(a, 'survivor', true, 5000), served(b, 'survivor', true, 5000)]);
    await pg.query(`DELETE FROM "${schema}".a2a_agents WHERE id = 'survivor'`);
    await Promise.all([served(a, 'survivor', false), served(b, 'survivor', false)]);
  });

  it('serves only enabled rows, re-reads a changed row, and answers UNAVAILABLE for a bad row while serving the others', async () => {
    await insert('later', 'demo', { name: 'Later' }, {}, false);
    await insert('broken', 'no-such-handler');
    await insert('fine', 'demo', { name: 'Fine' });
    await Promise.all([served(a, 'fine', true), served(b, 'fine', true)]);
    expect(await cardStatus(a, 'later')).toBe(404);
    // The bad row is served as an agent that says what is wrong with it.
    await served(a, 'broken', true);
    const refused = await postJson(`${a.url}/agents/broken/a2a/message:send`, { message: userMessage('hi') }, V1);
    expect(refused.status).toBe(503);
    expect((await json(refused)).error.message).toMatch(/Unknown handler "no-such-handler"/);

    await pg.query(`UPDATE "${schema}".a2a_agents SET enabled = true, updated_at = now() WHERE id = 'later'`);
    await Promise.all([served(a, 'later', true), served(b, 'later', true)]);
    await pg.query(`UPDATE "${schema}".a2a_agents SET card = '{"name": "Renamed"}', updated_at = now() WHERE id = 'fine'`);
    await waitFor(async () => (await json(await fetch(`${b.url}/agents/fine/.well-known/agent-card.json`))).name === 'Renamed', { timeoutMs: 1000 });
    await pg.query(`DELETE FROM "${schema}".a2a_agents WHERE id IN ('later', 'broken', 'fine')`);
    await Promise.all(['later', 'fine', 'broken'].flatMap((id) => [served(a, id, false), served(b, id, false)]));
  });

  it('fails the running tasks of a removed agent visibly once the grace period is over', async () => {
    await insert('slowpoke', 'demo', { name: 'Slowpoke' });
    await served(a, 'slowpoke', true);
    const stream = await postJson(`${a.url}/agents/slowpoke/a2a/message:stream`, { message: userMessage('slow') }, { ...V1, Accept: 'text/event-stream' });
    const events = readSse(stream, { timeoutMs: 10_000 });
    await pg.query(`DELETE FROM "${schema}".a2a_agents WHERE id = 'slowpoke'`);
    const last = (await events).at(-1)!.data;
    expect(last.statusUpdate.status.state).toBe('TASK_STATE_FAILED');
    expect(partsText(last.statusUpdate.status.message.parts)).toMatch(/agent slowpoke was removed/);
    expect(await cardStatus(a, 'slowpoke')).toBe(404);
  });

  it('picks up a change that sent no notification at the next periodic resync', async () => {
    const c = await start(200);
    // Triggers off for this transaction only: the row arrives without a NOTIFY.
    await pg.query('BEGIN');
    await pg.query("SET LOCAL session_replication_role = 'replica'");
    await insert('quiet', 'demo', { name: 'Quiet' });
    await pg.query('COMMIT');
    await served(c, 'quiet', true, 2000);
    // The instances without a resync have not heard of it (nothing was announced).
    expect(await cardStatus(a, 'quiet')).toBe(404);
    // The next announced change makes them re-read the whole table, the quiet row included.
    await insert('loud', 'demo');
    await Promise.all([served(a, 'quiet', true), served(a, 'loud', true), served(b, 'quiet', true)]);
  });
});

describeWithPostgres('agent registry in PostgreSQL, two executor processes', () => {
  const schema = uniqueName('a2a_registry_proc');
  const processes: ExecutorProcess[] = [];
  let pg: Client;
  let urls: string[];

  beforeAll(async () => {
    pg = new Client({ connectionString: POSTGRES_URL });
    await pg.connect();
    const dir = mkdtempSync(join(tmpdir(), 'a2a-registry-'));
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ agents: [{ id: 'main', handler: 'demo' }] }));
    for (let i = 0; i < 2; i++) {
      processes.push(
        spawnExecutor({
          PORT: '0',
          GRPC_PORT: 'off',
          A2A_CONFIG: config,
          A2A_AGENT_REGISTRY_URL: POSTGRES_URL!,
          A2A_AGENT_REGISTRY_SCHEMA: schema,
          A2A_AGENT_REGISTRY_RESYNC_MS: '0',
          A2A_SHUTDOWN_GRACE_MS: '100',
        }),
      );
    }
    urls = await Promise.all(processes.map((p) => listeningUrl(p)));
  });
  afterAll(async () => {
    await Promise.all(processes.map(killHard));
    await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pg.end();
  });

  const status = async (url: string, id: string) => (await fetch(`${url}/agents/${id}/.well-known/agent-card.json`)).status;

  it('an inserted agent is reachable on both processes within a second, and a deleted one disappears the same way', async () => {
    await pg.query(`INSERT INTO "${schema}".a2a_agents (id, handler, card) VALUES ('visitor', 'demo', '{"name": "Visitor"}')`);
    await Promise.all(urls.map((url) => waitFor(async () => (await status(url, 'visitor')) === 200, { timeoutMs: 1000, what: `visitor served at ${url}` })));
    for (const url of urls) {
      const sent = await json(await postJson(`${url}/agents/visitor/a2a/message:send`, { message: userMessage('knock knock') }, V1));
      expect(partsText(sent.task.artifacts[0].parts)).toContain('knock knock');
    }
    await pg.query(`DELETE FROM "${schema}".a2a_agents WHERE id = 'visitor'`);
    await Promise.all(urls.map((url) => waitFor(async () => (await status(url, 'visitor')) === 404, { timeoutMs: 1000, what: `visitor gone at ${url}` })));
  });
});
