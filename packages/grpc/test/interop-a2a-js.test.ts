/**
 * Interop: the official TypeScript SDK's gRPC client (`@a2a-js/sdk` 1.3.0,
 * `@a2a-js/sdk/client/grpc`) against our gRPC server. Its client is built the way an SDK
 * user builds it: a `GrpcTransportFactory` transport wrapped in the SDK's `Client`.
 */
import { GetTaskRequest, ListTasksRequest, Role, TaskState } from '@a2a-polyglot/model';
import { startTestServer, testCard, type TestServer } from './helpers.js';

// The SDK ships CommonJS builds, but they `require('jose')`, which is ESM-only and cannot be
// loaded by jest's CommonJS runtime. jose only serves agent-card signature checks, which
// these tests never reach, so it is replaced by an empty module.
jest.mock('jose', () => ({}));

// The SDK's type declarations are ESM; load the CommonJS build at run time with ESM types.
type SdkClientModule = typeof import('@a2a-js/sdk/client', { with: { 'resolution-mode': 'import' }});
type SdkGrpcModule = typeof import('@a2a-js/sdk/client/grpc', { with: { 'resolution-mode': 'import' }});
const { Client } = require('@a2a-js/sdk/client') as SdkClientModule;
const { GrpcTransportFactory } = require('@a2a-js/sdk/client/grpc') as SdkGrpcModule;

type SdkClient = InstanceType<typeof Client>;
type SdkCard = ConstructorParameters<typeof Client>[1];

function message(text: string, taskId = '') {
  return {
    tenant: '',
    message: {
      messageId: `sdk-${Math.random().toString(36).slice(2)}`,
      contextId: '',
      taskId,
      role: Role.ROLE_USER,
      parts: [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: '' }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('@a2a-js/sdk 1.3.0 gRPC client against our server', () => {
  let t: TestServer;
  let client: SdkClient;

  beforeAll(async () => {
    t = await startTestServer();
    const card = {
      ...testCard(),
      supportedInterfaces: [{ url: t.url, protocolBinding: 'GRPC', tenant: '', protocolVersion: '1.0' }],
    } as unknown as SdkCard;
    const transport = await new GrpcTransportFactory().create(t.url, card);
    client = new Client(transport, card);
  });

  afterAll(async () => {
    await t.close();
  });

  it('sendMessage: a completed task (the SDK returns the Task itself)', async () => {
    const task = (await client.sendMessage(message('steps 2') as never)) as any;
    expect(task.payload).toBeUndefined(); // the SDK unwraps SendMessageResponse to Task | Message
    expect(task.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts).toHaveLength(2);
  });

  it('sendMessageStream: task first, then events in order', async () => {
    const events = (await collect(client.sendMessageStream(message('steps 1') as never))) as any[];
    expect(events.map((e) => e.payload?.$case)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(events[3].payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('getTask and listTasks', async () => {
    const events = (await collect(client.sendMessageStream(message('steps 1') as never))) as any[];
    const taskId = events[0].payload.value.id;
    // The SDK encodes requests with ts-proto `encode`, which needs complete messages.
    const task = (await client.getTask(GetTaskRequest.fromPartial({ id: taskId }) as never)) as any;
    expect(task.id).toBe(taskId);
    const list = (await client.listTasks(ListTasksRequest.fromPartial({ contextId: task.contextId }) as never)) as any;
    expect(list.tasks.map((x: any) => x.id)).toEqual([taskId]);
  });

  it('cancelTask cancels a running task', async () => {
    const stream = client.sendMessageStream(message('hang') as never);
    const first = (await stream.next()).value as any;
    const taskId = first.payload.value.id;
    const canceled = (await client.cancelTask({ tenant: '', id: taskId, metadata: undefined } as never)) as any;
    expect(canceled.status.state).toBe(TaskState.TASK_STATE_CANCELED);
    await stream.return(undefined);
  });

  it('resubscribeTask (SubscribeToTask): snapshot first, then live events', async () => {
    const stream = client.sendMessageStream(message('gate sdk') as never);
    const first = (await stream.next()).value as any;
    const taskId = first.payload.value.id;
    await stream.return(undefined);
    const sub = client.resubscribeTask({ tenant: '', id: taskId } as never);
    const seen: any[] = [];
    for await (const e of sub as AsyncIterable<any>) {
      seen.push(e);
      if (seen.length === 1) t.gates.open('sdk');
    }
    expect(seen[0].payload.$case).toBe('task');
    expect(seen.at(-1).payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('push-config CRUD and the extended card', async () => {
    const done = (await client.sendMessage(message('steps 1') as never)) as any;
    const taskId = (done.payload?.value ?? done).id;
    const created = (await client.createTaskPushNotificationConfig({
      tenant: '',
      id: '',
      taskId,
      url: 'http://127.0.0.1:9/h',
      token: 't',
      authentication: undefined,
    } as never)) as any;
    expect(created.id).not.toBe('');
    const got = (await client.getTaskPushNotificationConfig({ tenant: '', taskId, id: created.id } as never)) as any;
    expect(got.url).toBe('http://127.0.0.1:9/h');
    const list = (await client.listTaskPushNotificationConfig({ tenant: '', taskId, pageSize: 0, pageToken: '' } as never)) as any;
    expect(list.configs).toHaveLength(1);
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId, id: created.id } as never);
    // getAgentCard() fetches the extended card when the card offers one (GetExtendedAgentCard).
    const card = (await client.getAgentCard()) as any;
    expect(card.name).toBe('grpc-test (extended)');
  });

  it('errors: ErrorInfo reasons become the SDK error classes, with ErrorInfo metadata', async () => {
    const notFound = (await client.getTask(GetTaskRequest.fromPartial({ id: 'missing' }) as never).catch((e: unknown) => e)) as any;
    expect(notFound).toBeInstanceOf(Error);
    expect(notFound.constructor.name).toMatch(/TaskNotFound/);
    expect(notFound.metadata).toEqual({ taskId: 'missing' });
    const events = (await collect(client.sendMessageStream(message('steps 1') as never))) as any[];
    const taskId = events[0].payload.value.id;
    const notCancelable = (await client.cancelTask({ tenant: '', id: taskId, metadata: undefined } as never).catch((e: unknown) => e)) as any;
    expect(notCancelable.constructor.name).toMatch(/TaskNotCancelable/);
  });
});
