/**
 * The process-level path: `main.ts` in a real child process (through scripts/run-ts.js,
 * which compiles sources with SWC on load, so no build is needed). Covers what in-process
 * tests cannot: exit codes, one-line startup errors, SIGTERM handling, ESM agent modules.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_FLAGS } from '../src/config.js';
import { json, partsText, postJson, readSse, userMessage } from './helpers.js';
import { listeningUrl, spawnExecutor, type ExecutorProcess } from './spawn-executor.js';

const children: ExecutorProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
});

function run(args: string[], env: Record<string, string>): ExecutorProcess {
  const c = spawnExecutor(env, args);
  children.push(c);
  return c;
}

async function exitCode(c: ExecutorProcess, timeoutMs = 15_000): Promise<number | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([c.exited, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('process did not exit')), timeoutMs)))]);
  } finally {
    clearTimeout(timer);
  }
}

describe('main (process)', () => {
  it('on SIGTERM fails the in-flight slow task visibly and exits 0', async () => {
    const c = run([], { PORT: '0', A2A_SHUTDOWN_GRACE_MS: '200', A2A_DEMO_CHUNK_DELAY_MS: '5' });
    const url = await listeningUrl(c);
    expect(c.stdout).toContain(`card ${url}/.well-known/agent-card.json, JSON-RPC ${url}/a2a/rpc, REST ${url}/a2a, gRPC 127.0.0.1:`);
    const res = await postJson(`${url}/a2a/message:stream`, { message: userMessage('slow') }, { Accept: 'text/event-stream' });
    let ticking!: () => void;
    const ticked = new Promise<void>((r) => (ticking = r));
    const reading = readSse(res, { until: (_e, all) => (all.filter((x) => x.data.artifactUpdate).length === 2 && ticking(), false), timeoutMs: 15_000 });
    await ticked;
    c.process.kill('SIGTERM');
    const events = await reading;
    const last = events[events.length - 1]!.data;
    expect(last.statusUpdate.status.state).toBe('TASK_STATE_FAILED');
    expect(partsText(last.statusUpdate.status.message.parts)).toMatch(/shut down/);
    expect(await exitCode(c)).toBe(0);
    expect(c.stdout).toContain('Received SIGTERM');
    expect(c.stdout).toContain('Stopped');
  });

  it('exits 2 with one line on bad configuration', async () => {
    const c = run([], { PORT: 'abc' });
    expect(await exitCode(c)).toBe(2);
    expect(c.stderr).toBe('Invalid configuration: PORT must be an integer (got "abc")\n');
    expect(c.stdout).toBe('');
  });

  it("exits 2 with one line when an agent's settings are bad (a configuration error, as the README says)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'executor-settings-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ agents: [{ id: 'a', handler: 'openai-chat', name: 'A', settings: { model: 'm', bogus: 1 } }] }));
    const c = run(['--config', file], { PORT: '0', GRPC_PORT: 'off' });
    expect(await exitCode(c)).toBe(2);
    expect(c.stderr).toMatch(/^Invalid configuration: agent "a": unknown key agents\[0\]\.settings\.bogus .*\n$/);
  });

  it('exits 1 with one line naming the port settings when the HTTP port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const taken = run([], { PORT: String(port), GRPC_PORT: 'off' });
      expect(await exitCode(taken)).toBe(1);
      expect(taken.stderr).toBe(`Cannot listen on 127.0.0.1:${port}: the address is already in use (set port / PORT / --port; 0 picks a free port)\n`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('--help names every binding, describes every flag, and names the OTEL_* variables the executor reads', async () => {
    const c = run(['--help'], {});
    expect(await exitCode(c)).toBe(0);
    expect(c.stdout).toMatch(/JSON-RPC, HTTP\+JSON and WebSocket[\s\S]*gRPC/);
    for (const flag of ['--config', ...Object.keys(CLI_FLAGS)]) {
      // The flag, then (on its line or the next) a description of its own before "Config key".
      expect(c.stdout).toMatch(new RegExp(`^  ${flag} <[a-z]+>\\s+(?!Config key)\\S[^\\n]{10,}`, 'm'));
    }
    // Every OTEL_* variable the sources read (`env.OTEL_…`), whoever added it.
    const read = new Set<string>();
    for (const file of readdirSync(join(__dirname, '../src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')))
      for (const [name] of readFileSync(join(__dirname, '../src', file), 'utf8').matchAll(/\benv\.(OTEL_[A-Z_]+)/g)) read.add(name.slice('env.'.length));
    expect(read.size).toBeGreaterThan(5);
    const otelSection = c.stdout.slice(c.stdout.indexOf('OpenTelemetry'));
    for (const name of read) expect(otelSection).toMatch(new RegExp(`^  ${name}\\s`, 'm'));
  });

  it('exits 1 with one line when the agent module is missing', async () => {
    const c = run(['--port', '0', '--agent-module', './does-not-exist.js'], {});
    expect(await exitCode(c)).toBe(1);
    expect(c.stderr.trim().split('\n')).toHaveLength(1);
    expect(c.stderr).toMatch(/^Agent module not found: .*does-not-exist\.js$/m);
  });

  it('exits 1 with one line when the gRPC port is taken, and GRPC_PORT=off serves without gRPC', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const taken = run([], { PORT: '0', GRPC_PORT: String(port) });
      expect(await exitCode(taken)).toBe(1);
      expect(taken.stderr).toBe(
        `Cannot listen for gRPC on 127.0.0.1:${port}: the address is already in use (set grpcPort / GRPC_PORT / --grpc-port, or "off" to disable gRPC)\n`,
      );
      const off = run(['--grpc-port', 'off'], { PORT: '0', GRPC_PORT: String(port) });
      await listeningUrl(off);
      expect(off.stdout).toContain(', gRPC off"');
      off.process.kill('SIGTERM');
      expect(await exitCode(off)).toBe(0);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('serves an ES module agent given by A2A_AGENT_MODULE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'executor-esm-'));
    writeFileSync(join(dir, 'agent.mjs'), `export default { async execute(ctx) { ctx.reply('esm says ' + ctx.text); } };\n`);
    const c = run([], { PORT: '0', A2A_AGENT_MODULE: join(dir, 'agent.mjs') });
    const url = await listeningUrl(c);
    const body = await json(await postJson(`${url}/a2a/message:send`, { message: userMessage('hi') }));
    expect(partsText(body.message.parts)).toBe('esm says hi');
    c.process.kill('SIGINT');
    expect(await exitCode(c)).toBe(0);
  });
});
