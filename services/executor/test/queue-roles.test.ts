/**
 * The roles of a queued deployment, in child processes (PostgreSQL + Redis): a worker
 * (`--role worker`) binds no port at all — no HTTP (JSON-RPC, REST, WebSocket, health), no
 * gRPC, even with both ports configured — and prints no URL, yet runs the tasks a frontend
 * (`--role frontend`) queued; the frontend listens and runs none of them itself.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, postJson, userMessage } from './helpers.js';
import { cleanUp, describeWithPostgresAndRedis, POSTGRES_URL, REDIS_URL, uniqueName } from './durable-services.js';
import { connectOutcome, freePort, listeningSockets } from './sockets.js';
import { killHard, listeningUrl, spawnExecutor, workerStarted, type ExecutorProcess } from './spawn-executor.js';

jest.setTimeout(60_000);

/** Completes at once, naming the process that ran it. */
const PID_AGENT = `'use strict';
module.exports = { async execute(ctx) { ctx.complete('ran on ' + process.pid); } };
`;

describeWithPostgresAndRedis('run queue roles: a worker binds no port (PostgreSQL + Redis)', () => {
  const schema = uniqueName('a2a_roles');
  const dir = mkdtempSync(join(tmpdir(), 'a2a-roles-'));
  let frontend: ExecutorProcess;
  let worker: ExecutorProcess;
  let frontendUrl: string;
  let workerPorts: { http: number; grpc: number };

  beforeAll(async () => {
    const agentPath = join(dir, 'pid-agent.js');
    writeFileSync(agentPath, PID_AGENT);
    const configPath = join(dir, 'config.json');
    writeFileSync(configPath, JSON.stringify({ agents: [{ id: 'pid', handler: 'module', settings: { path: agentPath } }] }));
    const shared = {
      HOST: '127.0.0.1',
      A2A_STORE: 'postgres',
      A2A_POSTGRES_URL: POSTGRES_URL!,
      A2A_POSTGRES_SCHEMA: schema,
      A2A_REDIS_URL: REDIS_URL!,
      A2A_REDIS_PREFIX: schema,
      A2A_QUEUE: 'true',
      A2A_QUEUE_POLL_MS: '20',
    };
    workerPorts = { http: await freePort(), grpc: await freePort() };
    frontend = spawnExecutor({ ...shared, PORT: '0', GRPC_PORT: '0', A2A_INSTANCE_ID: 'frontend' }, ['--config', configPath, '--role', 'frontend']);
    // Ports configured on purpose: the worker must leave them unbound anyway.
    worker = spawnExecutor({ ...shared, PORT: String(workerPorts.http), GRPC_PORT: String(workerPorts.grpc), A2A_INSTANCE_ID: 'worker' }, [
      '--config',
      configPath,
      '--role',
      'worker',
    ]);
    [frontendUrl] = await Promise.all([listeningUrl(frontend), workerStarted(worker)]);
  });

  afterAll(async () => {
    await Promise.all([frontend, worker].filter(Boolean).map(killHard));
    rmSync(dir, { recursive: true, force: true });
    await cleanUp(schema, schema);
  });

  it('the worker opened no listening socket and printed no URL; the frontend listens', async () => {
    expect(worker.stdout).toContain('A2A worker started');
    expect(worker.stdout).not.toContain('listening on');
    expect(worker.stdout).not.toMatch(/https?:\/\//);
    expect(await connectOutcome(workerPorts.http)).toBe('ECONNREFUSED');
    expect(await connectOutcome(workerPorts.grpc)).toBe('ECONNREFUSED');
    expect(listeningSockets(worker.process.pid!)).toEqual([]);
    // The same probe sees the frontend's HTTP and gRPC listeners: it can fail.
    expect(listeningSockets(frontend.process.pid!).length).toBeGreaterThanOrEqual(2);
  });

  it('sends through the frontend complete on the worker, none on the frontend', async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, async () =>
        json(await postJson(`${frontendUrl}/agents/pid/a2a/message:send`, { message: userMessage('who') }, { 'A2A-Version': '1.0' })),
      ),
    );
    for (const body of answers) {
      expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(body.task.status.message.parts[0].text).toBe(`ran on ${worker.process.pid}`);
    }
    // Still no port after running tasks.
    expect(listeningSockets(worker.process.pid!)).toEqual([]);
  });
});
