/**
 * The Express, Fastify and Hono examples under `examples/`, run as a user runs them (`node
 * examples/<framework>/server.mjs`, on the built packages): the first stdout line is the base
 * URL, the card lists URLs under `/agent`, a JSON-RPC send completes, and the app's own
 * route answers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { waitFor } from '@a2a-polyglot/testing';
import { readSse, rpc, sendParams } from './helpers.js';

const ROOT = resolve(__dirname, '../../..');
const iface = (card: any, binding: string) => card.supportedInterfaces.find((i: any) => i.protocolBinding === binding)?.url;

interface Example {
  readonly child: ChildProcess;
  stdout: string;
  stderr: string;
}

const running: Example[] = [];
afterEach(async () => {
  for (const e of running.splice(0)) {
    if (e.child.exitCode !== null || e.child.signalCode !== null) continue;
    const exited = new Promise((r) => e.child.once('exit', r));
    e.child.kill('SIGTERM');
    await exited;
  }
});

function start(framework: string): Example {
  if (!existsSync(join(ROOT, 'packages/server/dist/index.js'))) throw new Error('the examples run on the built packages: run `npm run build` first');
  const child = spawn(process.execPath, [join(ROOT, 'examples', framework, 'server.mjs')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const e: Example = { child, stdout: '', stderr: '' };
  child.stdout!.on('data', (d: Buffer) => (e.stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (e.stderr += d.toString()));
  running.push(e);
  return e;
}

async function firstLine(e: Example): Promise<string> {
  await waitFor(
    () => {
      if (!e.stdout.includes('\n') && e.child.exitCode !== null) throw new Error(`exited early (${e.child.exitCode}): ${e.stderr}`);
      return e.stdout.includes('\n');
    },
    { timeoutMs: 15_000, intervalMs: 20, what: 'the first stdout line' },
  );
  return e.stdout.split('\n')[0]!.trim();
}

describe.each(['express', 'fastify', 'hono'])('examples/%s/server.mjs', (framework) => {
  it('prints its base URL first and serves the agent under /agent beside its own route', async () => {
    const base = await firstLine(start(framework));
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const card: any = await (await fetch(`${base}/agent/.well-known/agent-card.json`)).json();
    expect(card.name).toMatch(/echo$/);
    expect(iface(card, 'JSONRPC')).toBe(`${base}/agent/a2a/rpc`);
    expect(iface(card, 'HTTP+JSON')).toBe(`${base}/agent/a2a`);

    const sent = await rpc(iface(card, 'JSONRPC'), 'SendMessage', sendParams('hello example'));
    expect(sent.status).toBe(200);
    expect(sent.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(sent.body.result.task.artifacts[0].parts.map((p: any) => p.text).join('')).toBe('You said: hello example');

    const own = await fetch(`${base}/hello`);
    expect(own.status).toBe(200);
    expect(((await own.json()) as any).hello).toMatch(/^from the /);
  });
});

describe('examples/hono/server.mjs', () => {
  it('streams a REST message:stream under /agent as SSE to the final event', async () => {
    const base = await firstLine(start('hono'));
    const res = await fetch(`${base}/agent/a2a/message:stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', accept: 'text/event-stream' },
      body: JSON.stringify(sendParams('hello stream')),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const read = await readSse(res);
    const last = JSON.parse(read.events.at(-1)!.data);
    expect(last.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
