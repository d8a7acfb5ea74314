/**
 * The official A2A JavaScript SDK client (@a2a-js/sdk 1.3.0) against the Express, Fastify and
 * Hono examples under `examples/`, each run as a user runs it (`node examples/<name>/server.mjs`
 * on the built packages): it resolves the card under `/agent`, and sends, streams, reads and
 * cancels over both HTTP bindings. Loading the SDK as interop-official-client.test.ts does (its
 * CJS build, `jose` stubbed: no signature is verified here).
 */
import type * as SdkClient from '@a2a-js/sdk/client' with { 'resolution-mode': 'import' };
import type * as Sdk from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { waitFor } from '@a2a-polyglot/testing';
import { sdkRequest, stateOf, textOf } from './interop-official-sdk.js';

jest.mock('jose', () => ({}));
const { ClientFactory, JsonRpcTransportFactory, RestTransportFactory } = require('@a2a-js/sdk/client') as typeof SdkClient;
const { TaskState } = require('@a2a-js/sdk') as typeof Sdk;

const ROOT = resolve(__dirname, '../../..');

/** Starts an example on a free port and resolves its base URL (its first stdout line). */
async function startExample(name: string): Promise<{ base: string; child: ChildProcess }> {
  if (!existsSync(join(ROOT, 'packages/server/dist/index.js'))) throw new Error('the examples run on the built packages: run `npm run build` first');
  const child = spawn(process.execPath, [join(ROOT, 'examples', name, 'server.mjs')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await waitFor(
    () => {
      if (!stdout.includes('\n') && child.exitCode !== null) throw new Error(`exited early (${child.exitCode}): ${stderr}`);
      return stdout.includes('\n');
    },
    { timeoutMs: 15_000, intervalMs: 20, what: `examples/${name}: the first stdout line` },
  );
  return { base: stdout.split('\n')[0]!.trim(), child };
}



describe.each(['express', 'fastify', 'hono'])('the official @a2a-js/sdk client against examples/%s', (name) => {
  let example: { base: string; child: ChildProcess };
  beforeAll(async () => {
    example = await startExample(name);
  });
  afterAll(async () => {
    if (example?.child.exitCode !== null) return;
    const exited = new Promise((r) => example.child.once('exit', r));
    example.child.kill('SIGTERM');
    await exited;
  });

  it.each(['JSONRPC', 'HTTP+JSON'] as const)('over %s: send, stream, get and cancel', async (binding) => {
    const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory({}), new RestTransportFactory({})], preferredTransports: [binding] });
    // The SDK resolves a card path against the origin: under a sub-path the card's full URL is given.
    const client = await factory.createFromUrl(`${example.base}/agent/.well-known/agent-card.json`, '');
    expect(client.transport.protocolName).toBe(binding);

    const sent = (await client.sendMessage(sdkRequest('hello from the official client'))) as Sdk.Task;
    expect(sent.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(sent.artifacts.map((a) => textOf(a.parts)).join('')).toBe('You said: hello from the official client');

    const events: Sdk.StreamResponse[] = [];
    for await (const event of client.sendMessageStream(sdkRequest('one two three'))) events.push(event);
    expect(events[0]?.payload?.$case).toBe('task');
    expect(stateOf(events.at(-1)!)).toBe(TaskState.TASK_STATE_COMPLETED);
    const chunks = events.flatMap((e) => (e.payload?.$case === 'artifactUpdate' ? [textOf(e.payload.value.artifact?.parts)] : []));
    expect(chunks).toEqual(['You said: one', ' two', ' three']);

    const read = await client.getTask({ tenant: '', id: sent.id, historyLength: undefined });
    expect(read.id).toBe(sent.id);
    expect(textOf(read.history[0]?.parts)).toBe('hello from the official client');

    // A long message streams for seconds (20 ms a word): cancel it once its first chunk is in.
    const long = client.sendMessageStream(sdkRequest(Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ')));
    let taskId = '';
    const seen: Sdk.StreamResponse[] = [];
    for await (const event of long) {
      seen.push(event);
      if (event.payload?.$case === 'task') taskId = event.payload.value.id;
      if (event.payload?.$case === 'artifactUpdate' && taskId) {
        const canceled = await client.cancelTask({ tenant: '', id: taskId, metadata: undefined });
        expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
        break;
      }
    }
    await waitFor(async () => (await client.getTask({ tenant: '', id: taskId, historyLength: undefined })).status?.state === TaskState.TASK_STATE_CANCELED, {
      timeoutMs: 5000,
      intervalMs: 20,
      what: 'the canceled task',
    });
    const after = await client.getTask({ tenant: '', id: taskId, historyLength: undefined });
    expect(after.artifacts.flatMap((a) => a.parts).length).toBeLessThan(200);
  });
});
