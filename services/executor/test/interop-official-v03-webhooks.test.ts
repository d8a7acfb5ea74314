/**
 * Webhooks registered in A2A v0.3 get v0.3 bodies: the official @a2a-js/sdk 0.3.14 client
 * (installed as `a2a-sdk-v03`) registers through v0.3 JSON-RPC — inline in `message/send` and
 * with `tasks/pushNotificationConfig/set` — and every body the webhook receives must be what a
 * receiver typed with that SDK's `Task | TaskStatusUpdateEvent | TaskArtifactUpdateEvent`
 * parses: `kind`, kebab-case states, `final` on the status update that ends the task (what the
 * v0.3 streams carry), `Content-Type: application/json` and the `X-A2A-Notification-Token`
 * header the SDK's own push sender writes. A v1.0 registration of the same server still gets
 * the v1.0 StreamResponse. Also: the v0.3 gRPC service answers push-not-supported as the
 * 0.3.14 gRPC client recognises it, and reads never answer a secret.
 */
import type * as V03Client from 'a2a-sdk-v03/client' with { 'resolution-mode': 'import' };
import type * as V03Grpc from 'a2a-sdk-v03/client/grpc' with { 'resolution-mode': 'import' };
import type * as V03 from 'a2a-sdk-v03' with { 'resolution-mode': 'import' };
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '@a2a-polyglot/core';
import { waitFor } from '@a2a-polyglot/testing';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { postJson, rpc } from './helpers.js';

const { ClientFactory, JsonRpcTransportFactory } = require('a2a-sdk-v03/client') as typeof V03Client;
const { GrpcTransportFactory } = require('a2a-sdk-v03/client/grpc') as typeof V03Grpc;

type WebhookEvent = V03.Task | V03.TaskStatusUpdateEvent | V03.TaskArtifactUpdateEvent;

/** Every v0.3 task state, checked against the SDK's union by the compiler (a missing or extra one does not compile). */
const V03_STATES: Record<V03.TaskState, true> = {
  submitted: true,
  working: true,
  'input-required': true,
  completed: true,
  canceled: true,
  failed: true,
  rejected: true,
  'auth-required': true,
  unknown: true,
};
const FINAL: ReadonlySet<V03.TaskState> = new Set<V03.TaskState>(['completed', 'canceled', 'failed', 'rejected']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isState = (v: unknown): v is V03.TaskState => typeof v === 'string' && Object.hasOwn(V03_STATES, v);

function checkStatus(status: unknown, where: string): V03.TaskStatus {
  if (!isObject(status) || !isState(status.state)) throw new Error(`${where}.state is not a v0.3 TaskState: ${JSON.stringify(status)}`);
  return status as unknown as V03.TaskStatus;
}

function checkParts(parts: unknown, where: string): void {
  if (!Array.isArray(parts) || !parts.every((p) => isObject(p) && (p.kind === 'text' || p.kind === 'file' || p.kind === 'data')))
    throw new Error(`${where} are not v0.3 Parts (each with kind text, file or data): ${JSON.stringify(parts)}`);
}

/**
 * Reads a webhook body as the SDK's types: the members each type requires, with their v0.3
 * values. Throws naming the first member a v0.3 receiver could not read.
 */
function asV03Event(body: unknown): WebhookEvent {
  if (!isObject(body)) throw new Error(`not a JSON object: ${JSON.stringify(body)}`);
  const requireString = (key: string) => {
    if (typeof body[key] !== 'string' || body[key] === '') throw new Error(`${body.kind} without ${key}: ${JSON.stringify(body)}`);
  };
  switch (body.kind) {
    case 'task':
      requireString('id');
      requireString('contextId');
      checkStatus(body.status, 'status');
      for (const [i, a] of ((body.artifacts as unknown[] | undefined) ?? []).entries()) checkParts(isObject(a) ? a.parts : undefined, `artifacts[${i}].parts`);
      return body as unknown as V03.Task;
    case 'status-update': {
      requireString('taskId');
      requireString('contextId');
      const status = checkStatus(body.status, 'status');
      if (body.final !== FINAL.has(status.state)) throw new Error(`status-update ${status.state} with final ${String(body.final)}`);
      return body as unknown as V03.TaskStatusUpdateEvent;
    }
    case 'artifact-update':
      requireString('taskId');
      requireString('contextId');
      if (!isObject(body.artifact) || typeof body.artifact.artifactId !== 'string') throw new Error(`artifact-update without artifact.artifactId`);
      checkParts(body.artifact.parts, 'artifact.parts');
      return body as unknown as V03.TaskArtifactUpdateEvent;
    default:
      throw new Error(`kind ${JSON.stringify(body.kind)} is not task, status-update or artifact-update`);
  }
}

interface Delivery {
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: unknown;
}

const deliveries: Delivery[] = [];
const to = (path: string) => deliveries.filter((d) => d.path === path);
/** The state a delivery reports, in either generation's spelling (`completed` / `TASK_STATE_COMPLETED`). */
function stateOf(body: unknown): unknown {
  if (!isObject(body)) return undefined;
  const status = body.kind === 'status-update' ? body.status : isObject(body.statusUpdate) ? body.statusUpdate.status : undefined;
  return isObject(status) ? status.state : undefined;
}
const ended = (path: string) => to(path).some((d) => stateOf(d.body) === 'completed' || stateOf(d.body) === 'TASK_STATE_COMPLETED');

let hooks: Server;
let hookUrl: string;
let running: RunningExecutor;
let client: V03Client.Client;

beforeAll(async () => {
  hooks = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}`;
  running = await startExecutor(
    { host: '127.0.0.1', port: 0, grpcPort: 0, demo: { chunkDelayMs: 1 }, shutdownGraceMs: 100, push: { allowPrivateNetworks: true } },
    { logger: silentLogger },
  );
  client = await new ClientFactory({ transports: [new JsonRpcTransportFactory()] }).createFromUrl(running.url);
});
afterAll(async () => {
  await running.close();
  hooks.closeAllConnections();
  await new Promise((resolve) => hooks.close(resolve));
});

function message(text: string, task?: { taskId: string; contextId: string }): V03.Message {
  return { kind: 'message', role: 'user', messageId: crypto.randomUUID(), parts: [{ kind: 'text', text }], ...task };
}

/** Checks every delivery to `path` as a v0.3 receiver would, and returns the events in order. */
function v03Events(path: string, token: string, authorization?: string): WebhookEvent[] {
  return to(path).map((d) => {
    expect(d.headers['content-type']).toBe('application/json');
    expect(d.headers['x-a2a-notification-token']).toBe(token);
    expect(d.headers.authorization).toBe(authorization);
    return asV03Event(d.body);
  });
}

describe('webhooks registered through v0.3 JSON-RPC (official 0.3.14 client)', () => {
  it('message/send with an inline pushNotificationConfig: every body is a v0.3 event, the task first, the last one final', async () => {
    const task = (await client.sendMessage({
      message: message('hello webhook'),
      configuration: { blocking: true, pushNotificationConfig: { url: `${hookUrl}/inline`, token: 'tok-inline' } },
    })) as V03.Task;
    expect(task.status.state).toBe('completed');
    await waitFor(() => ended('/inline'), { what: 'the completed status at the inline webhook' });
    const events = v03Events('/inline', 'tok-inline');
    expect(events[0]).toMatchObject({ kind: 'task', id: task.id, status: { state: 'submitted' } });
    expect(events.slice(1).every((e) => e.kind !== 'task' && e.taskId === task.id)).toBe(true);
    expect(events.filter((e) => e.kind === 'artifact-update').length).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
    expect(events.slice(0, -1).some((e) => e.kind === 'status-update' && e.final)).toBe(false);
  });

  it('tasks/pushNotificationConfig/set on an existing task: the follow-up run reaches it in v0.3, with Authorization from its credentials', async () => {
    const asked = (await client.sendMessage({ message: message('ask') })) as V03.Task;
    expect(asked.status.state).toBe('input-required');
    const config = { id: 'hook-set', url: `${hookUrl}/set`, token: 'tok-set', authentication: { schemes: ['Bearer'], credentials: 'cred-set' } };
    await client.setTaskPushNotificationConfig({ taskId: asked.id, pushNotificationConfig: config });
    await client.sendMessage({ message: message('blue', { taskId: asked.id, contextId: asked.contextId }) });
    await waitFor(() => ended('/set'), { what: 'the completed status at the set webhook' });
    const events = v03Events('/set', 'tok-set', 'Bearer cred-set');
    expect(events[0]).toMatchObject({ kind: 'status-update', final: false, status: { state: 'working' } });
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
    // Reading it back never answers the secrets.
    const read = await client.getTaskPushNotificationConfig({ id: asked.id, pushNotificationConfigId: 'hook-set' } as V03.TaskIdParams);
    expect(read.pushNotificationConfig).toMatchObject({ token: '********', authentication: { schemes: ['Bearer'], credentials: '********' } });
  });

  it('a v1.0 registration on the same server still gets the v1.0 StreamResponse', async () => {
    const res = await postJson(
      `${running.url}/a2a/rpc`,
      rpc('SendMessage', {
        message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hello v1' }] },
        configuration: { taskPushNotificationConfig: { url: `${hookUrl}/v1`, token: 'tok-v1' } },
      }),
    );
    expect(res.status).toBe(200);
    await waitFor(() => ended('/v1'), { what: 'the completed status at the v1.0 webhook' });
    const v1 = to('/v1');
    expect(v1.every((d) => d.headers['content-type'] === 'application/a2a+json')).toBe(true);
    expect(v1[0]!.body).toMatchObject({ task: { status: { state: 'TASK_STATE_SUBMITTED' } } });
    expect(v1.at(-1)!.body).toMatchObject({ statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } });
  });
});

describe('v0.3 push/list', () => {
  it('answers every config of a task (no 100 cap), secrets redacted', async () => {
    const asked = (await client.sendMessage({ message: message('ask') })) as V03.Task;
    for (let i = 0; i < 120; i++) {
      await client.setTaskPushNotificationConfig({ taskId: asked.id, pushNotificationConfig: { id: `c${i}`, url: `${hookUrl}/many`, token: `t${i}` } });
    }
    const listed = await client.listTaskPushNotificationConfig({ id: asked.id });
    expect(listed).toHaveLength(120);
    expect(listed.every((c) => c.pushNotificationConfig.token === '********')).toBe(true);
  });
});

describe('push not supported, as the 0.3.14 gRPC client recognises it', () => {
  let pushless: RunningExecutor;
  beforeAll(async () => {
    pushless = await startExecutor(
      { host: '127.0.0.1', port: 0, grpcPort: 0, shutdownGraceMs: 100, agent: { capabilities: { pushNotifications: false } } },
      { logger: silentLogger },
    );
  });
  afterAll(() => pushless.close());

  it('every push-config RPC fails with PushNotificationNotSupportedError', async () => {
    const grpc = await new ClientFactory({ transports: [new GrpcTransportFactory()] }).createFromUrl(pushless.url);
    // The client checks the card first; the transport is what talks to the server.
    const transport = grpc.transport as V03Grpc.GrpcTransport;
    const calls: Array<Promise<unknown>> = [
      transport.setTaskPushNotificationConfig({ taskId: 't', pushNotificationConfig: { url: 'https://hooks.example.com/a2a' } }),
      transport.getTaskPushNotificationConfig({ id: 't', pushNotificationConfigId: 'c' } as V03.TaskIdParams),
      transport.listTaskPushNotificationConfig({ id: 't' }),
      transport.deleteTaskPushNotificationConfig({ id: 't', pushNotificationConfigId: 'c' }),
    ];
    // By class name: the gRPC transport bundle has its own copies of the error classes.
    const names = await Promise.all(
      calls.map((call) =>
        call.then(
          () => 'no error',
          (error: Error) => error.constructor.name,
        ),
      ),
    );
    expect(names).toEqual([
      'PushNotificationNotSupportedError',
      'PushNotificationNotSupportedError',
      'PushNotificationNotSupportedError',
      'PushNotificationNotSupportedError',
    ]);
  });
});
