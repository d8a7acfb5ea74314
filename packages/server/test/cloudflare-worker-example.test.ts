/**
 * examples/cloudflare-worker in the real Workers runtime: the worker is bundled by the example's own
 * build script (esbuild, browser platform, no nodejs_compat) and run in workerd through
 * Miniflare; every request goes through `mf.dispatchFetch`. The card's URLs follow the
 * request's origin; JSON-RPC and REST sends complete (REST also reads and lists the task); a JSON-RPC stream is read to its final
 * SSE event; an unknown path is a 404; push notifications reach a receiver on this machine
 * over workerd's `fetch` (the worker is given `A2A_ALLOW_PRIVATE_WEBHOOKS`, as local tests only may).
 * And our own client (`@a2a-polyglot/client`) talks to the worker on the loopback port
 * Miniflare listens on, over JSON-RPC and REST: it resolves the card (so the card's URLs
 * work), sends, streams, reads the task back, is refused a cancel of the ended task, and
 * manages a push config.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type BindingKey, Client, textMessage } from '@a2a-polyglot/client';
import { A2AErrorCode } from '@a2a-polyglot/core';
import { TaskState } from '@a2a-polyglot/model';
import { Miniflare } from 'miniflare';
import { waitFor, webhookReceiver } from '@a2a-polyglot/testing';
import { readSse, sendParams, V } from './helpers.js';

const ROOT = join(__dirname, '..', '..', '..');
const ORIGIN = 'http://worker.example';
let nextId = 1;

describe('examples/cloudflare-worker in workerd (Miniflare)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-worker-'));
  let mf: Miniflare;
  /** Where workerd listens (loopback, a free port): what a real client is given. */
  let baseUrl: string;

  beforeAll(async () => {
    const outfile = join(dir, 'worker.mjs');
    await promisify(execFile)(process.execPath, [join(ROOT, 'examples', 'cloudflare-worker', 'build.mjs'), outfile], { cwd: ROOT });
    const script = readFileSync(outfile, 'utf8');
    expect(script).not.toMatch(/from\s*["']node:/);
    // The flags of examples/cloudflare-worker/wrangler.toml: none, the bundle needs no nodejs_compat.
    mf = new Miniflare({
      modules: true,
      script,
      compatibilityDate: '2026-04-01',
      bindings: { A2A_ALLOW_PRIVATE_WEBHOOKS: '1' },
      host: '127.0.0.1',
      port: 0,
    });
    baseUrl = (await mf.ready).href.replace(/\/$/, '');
  }, 60_000);

  afterAll(async () => {
    await mf?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  // Miniflare's Response is undici's; its body is a web ReadableStream like the global one's.
  const call = async (path: string, init?: { method?: string; headers?: Record<string, string>; body?: string }) =>
    (await mf.dispatchFetch(`${ORIGIN}${path}`, init)) as unknown as Response;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(path, { method: 'POST', headers: { 'content-type': 'application/json', ...V, ...headers }, body: JSON.stringify(body) });
  const rpcBody = (method: string, params: unknown) => ({ jsonrpc: '2.0', id: nextId++, method, params });

  it('serves the card with URLs under the request origin, and revalidates it', async () => {
    const res = await call('/.well-known/agent-card.json');
    expect(res.status).toBe(200);
    const card: any = await res.json();
    expect(card.name).toBe('Workers echo');
    const urls = card.supportedInterfaces.map((i: any) => `${i.protocolBinding} ${i.url}`);
    expect(urls).toContain(`JSONRPC ${ORIGIN}/a2a/rpc`);
    expect(urls).toContain(`HTTP+JSON ${ORIGIN}/a2a`);
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const again = await call('/.well-known/agent-card.json', { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    await again.arrayBuffer();
  });

  it('completes a task sent with JSON-RPC SendMessage', async () => {
    const res = await post('/a2a/rpc', rpcBody('SendMessage', sendParams('hello worker')));
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(body.result.task.artifacts[0].parts[0].text).toBe('You said: hello worker');
  });

  it('completes a task sent with REST message:send, then reads it back', async () => {
    const res = await post('/a2a/message:send', sendParams('hello rest'), { 'content-type': 'application/a2a+json' });
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(body.task.artifacts[0].parts[0].text).toBe('You said: hello rest');
    const got = await call(`/a2a/tasks/${body.task.id}`, { headers: V });
    expect(got.status).toBe(200);
    expect(((await got.json()) as any).id).toBe(body.task.id);
    // ListTasks sizes its page in UTF-8 bytes (Buffer in Node, TextEncoder here).
    const list = await call('/a2a/tasks', { headers: V });
    expect(list.status).toBe(200);
    expect(((await list.json()) as any).tasks.map((t: any) => t.id)).toContain(body.task.id);
  });

  it('streams a JSON-RPC SendStreamingMessage as SSE to the final event', async () => {
    const res = await post('/a2a/rpc', rpcBody('SendStreamingMessage', sendParams('hello stream')), { accept: 'text/event-stream' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const read = await readSse(res);
    const frames = read.events.map((e) => JSON.parse(e.data));
    expect(frames.every((f) => f.jsonrpc === '2.0' && f.result)).toBe(true);
    const texts = frames.flatMap((f) => f.result.artifactUpdate?.artifact.parts.map((p: any) => p.text) ?? []);
    expect(texts).toContain('You said: hello stream');
    const last = frames.at(-1).result;
    expect(last.statusUpdate?.status.state ?? last.task?.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('delivers push notifications from workerd over fetch to a receiver, up to the completed event', async () => {
    const hook = await webhookReceiver();
    try {
      const push = { url: hook.url, token: 'worker-token', authentication: { scheme: 'Bearer', credentials: 'hook-secret' } };
      const res = await post('/a2a/rpc', rpcBody('SendMessage', sendParams('hello push', {}, { taskPushNotificationConfig: push })));
      const body: any = await res.json();
      expect(body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      const states = () =>
        hook.received
          .map((r) => JSON.parse(r.body))
          .map((e) => e.task?.status.state ?? e.statusUpdate?.status.state ?? (e.artifactUpdate ? 'artifact' : undefined));
      await waitFor(() => states().includes('TASK_STATE_COMPLETED'), { what: 'the completed event at the webhook', timeoutMs: 15_000 });
      expect(states().at(-1)).toBe('TASK_STATE_COMPLETED');
      expect(hook.received.every((r) => r.method === 'POST' && r.url === '/hook')).toBe(true);
      expect(hook.received[0]?.headers).toMatchObject({
        'content-type': 'application/a2a+json',
        'x-a2a-notification-token': 'worker-token',
        authorization: 'Bearer hook-secret',
      });
    } finally {
      await hook.close();
    }
  });

  it('answers 404 for a path it does not serve', async () => {
    const res = await call('/nothing/here', { headers: V });
    expect(res.status).toBe(404);
    await res.arrayBuffer();
  });

  describe.each<BindingKey>(['jsonrpc', 'rest'])('our client over %s, on the port workerd listens on', (binding) => {
    let client: Client;
    beforeAll(async () => {
      client = await Client.connect(baseUrl, { bindings: [binding], timeoutMs: 15_000 });
    });
    afterAll(() => client?.close());

    it('resolves the card and picks the interface at the URL the card lists', () => {
      expect(client.card.name).toBe('Workers echo');
      expect(client.binding).toBe(binding);
      expect(client.agentInterface.url).toBe(binding === 'jsonrpc' ? `${baseUrl}/a2a/rpc` : `${baseUrl}/a2a`);
    });

    it('sends a message and gets the completed task, then reads it back', async () => {
      const sent = await client.sendMessage({ message: textMessage(`hello ${binding}`) });
      expect(sent.payload?.$case).toBe('task');
      const task = sent.payload?.$case === 'task' ? sent.payload.value : undefined;
      expect(task?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(task?.artifacts[0]?.parts[0]?.content).toEqual({ $case: 'text', value: `You said: hello ${binding}` });
      const got = await client.getTask({ id: task!.id });
      expect(got.id).toBe(task!.id);
      expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    });

    it('streams a message to its terminal event', async () => {
      const stream = client.sendStreamingMessage({ message: textMessage(`stream ${binding}`) });
      const cases: string[] = [];
      const texts: string[] = [];
      for await (const { event } of stream) {
        cases.push(event.payload?.$case ?? '');
        if (event.payload?.$case === 'artifactUpdate') {
          for (const part of event.payload.value.artifact?.parts ?? []) if (part.content?.$case === 'text') texts.push(part.content.value);
        }
      }
      expect(stream.end).toBe('terminal');
      expect(cases).toContain('artifactUpdate');
      expect(texts).toEqual([`You said: stream ${binding}`]);
    });

    it('is refused a cancel of the ended task with TASK_NOT_CANCELABLE', async () => {
      const sent = await client.sendMessage({ message: textMessage('cancel me') });
      const id = sent.payload?.$case === 'task' ? sent.payload.value.id : '';
      await expect(client.cancelTask({ id })).rejects.toMatchObject({ code: A2AErrorCode.TaskNotCancelable });
    });

    it('creates, reads, lists and deletes a push config of a task', async () => {
      const sent = await client.sendMessage({ message: textMessage('push config') });
      const taskId = sent.payload?.$case === 'task' ? sent.payload.value.id : '';
      const created = await client.createTaskPushNotificationConfig({ taskId, url: 'https://hooks.example.com/a2a', token: 't' });
      expect(created).toMatchObject({ taskId, url: 'https://hooks.example.com/a2a' });
      await expect(client.getTaskPushNotificationConfig({ taskId, id: created.id })).resolves.toMatchObject({ id: created.id });
      const listed = await client.listTaskPushNotificationConfigs({ taskId });
      expect(listed.configs.map((c) => c.id)).toEqual([created.id]);
      await client.deleteTaskPushNotificationConfig({ taskId, id: created.id });
      expect((await client.listTaskPushNotificationConfigs({ taskId })).configs).toEqual([]);
    });
  });
});
