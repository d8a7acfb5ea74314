import { A2AErrorCode } from '@a2a-polyglot/core';
import { V03A2AServiceClient } from '@a2a-polyglot/model/grpc';
import {
  CreateTaskPushNotificationConfigRequest,
  Role,
  SendMessageRequest,
  TaskState,
  type AgentCard,
  type ListTaskPushNotificationConfigResponse,
  type SendMessageResponse,
  type StreamResponse,
  type Task,
  type TaskPushNotificationConfig,
} from '@a2a-polyglot/model/v03';
import { credentials, Metadata, status as GrpcCode, type ClientReadableStream, type ServiceError } from '@grpc/grpc-js';
import { waitFor } from '@a2a-polyglot/testing';
import { collect, detailsOf, rawUnary, startTestServer, type TestServer } from './helpers.js';

/** The v0.3 service, as the generated v0.3 client reaches it (no a2a-version, like v0.3 SDKs). */
describe('gRPC v0.3 service a2a.v1.A2AService', () => {
  let t: TestServer;
  let client: V03A2AServiceClient;

  beforeAll(async () => {
    t = await startTestServer();
    client = new V03A2AServiceClient(t.url, credentials.createInsecure());
  });

  afterAll(async () => {
    client.close();
    await t.close();
  });

  /** One unary v0.3 call as a promise (metadata as given: none by default). */
  function unary<Req, Res>(method: string, request: Req, md: Record<string, string> = {}): Promise<Res> {
    const metadata = new Metadata();
    for (const [k, v] of Object.entries(md)) metadata.set(k, v);
    return new Promise((resolve, reject) => {
      (client as any)[method](request, metadata, (error: ServiceError | null, response: Res) => (error ? reject(error) : resolve(response)));
    });
  }

  async function rejection(call: Promise<unknown>): Promise<ServiceError> {
    try {
      await call;
    } catch (error) {
      return error as ServiceError;
    }
    throw new Error('expected the call to fail');
  }

  const send = (text: string, extra: { taskId?: string; contextId?: string; blocking?: boolean } = {}): SendMessageRequest =>
    SendMessageRequest.fromPartial({
      request: {
        messageId: `m-${Math.random().toString(36).slice(2)}`,
        role: Role.ROLE_USER,
        content: [{ part: { $case: 'text', value: text } }],
        taskId: extra.taskId ?? '',
        contextId: extra.contextId ?? '',
      },
      configuration: { blocking: extra.blocking ?? true },
    });

  const taskOf = (res: SendMessageResponse): Task => {
    if (res.payload?.$case !== 'task') throw new Error(`expected a task, got ${res.payload?.$case}`);
    return res.payload.value;
  };

  it('SendMessage: a direct answer comes back as `msg` with `content` parts', async () => {
    const res = await unary<SendMessageRequest, SendMessageResponse>('sendMessage', send('echo hi'));
    expect(res.payload?.$case).toBe('msg');
    if (res.payload?.$case === 'msg') {
      expect(res.payload.value.role).toBe(Role.ROLE_AGENT);
      expect(res.payload.value.content).toEqual([{ part: { $case: 'text', value: 'echo hi' }, metadata: undefined }]);
    }
  });

  it('SendMessage blocking returns the completed task; GetTask reads it by resource name', async () => {
    const task = taskOf(await unary('sendMessage', send('steps 2')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts.map((a) => a.name)).toEqual(['chunk-0', 'chunk-1']);
    const got = await unary<unknown, Task>('getTask', { name: `tasks/${task.id}`, historyLength: 0 });
    expect(got.id).toBe(task.id);
    expect(got.history[0]?.content[0]?.part).toEqual({ $case: 'text', value: 'steps 2' });
  });

  it('SendStreamingMessage streams v0.3 events; only the terminal status update has final=true', async () => {
    const events = await collect<StreamResponse>(
      client.sendStreamingMessage(send('steps 1')) as ClientReadableStream<StreamResponse> as AsyncIterable<StreamResponse>,
    );
    const cases = events.map((e) => e.payload?.$case);
    expect(cases[0]).toBe('task');
    expect(cases).toContain('artifactUpdate');
    const updates = events.flatMap((e) => (e.payload?.$case === 'statusUpdate' ? [e.payload.value] : []));
    expect(updates.map((u) => [u.status?.state, u.final])).toEqual([
      [TaskState.TASK_STATE_WORKING, false],
      [TaskState.TASK_STATE_COMPLETED, true],
    ]);
  });

  it('CancelTask on a running task answers TASK_STATE_CANCELLED; TaskSubscription follows a running task', async () => {
    const task = taskOf(await unary('sendMessage', send('gate v03-sub', { blocking: false })));
    const stream = client.taskSubscription({ name: `tasks/${task.id}` });
    const seen: StreamResponse[] = [];
    stream.on('data', (e: StreamResponse) => seen.push(e));
    const ended = new Promise<void>((resolve, reject) => {
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    await waitFor(() => seen.length > 0);
    expect(seen[0]?.payload?.$case).toBe('task');
    t.gates.open('v03-sub');
    await ended;
    const last = seen.at(-1)!;
    expect(last.payload?.$case === 'statusUpdate' && last.payload.value.final).toBe(true);

    const hanging = taskOf(await unary('sendMessage', send('hang', { blocking: false })));
    const canceled = await unary<unknown, Task>('cancelTask', { name: `tasks/${hanging.id}` });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELLED);
    const again = await rejection(unary('cancelTask', { name: `tasks/${hanging.id}` }));
    expect(again.code).toBe(GrpcCode.FAILED_PRECONDITION);
    expect(again.details).toMatch(/^TaskNotCancelableError: /);
  });

  it('errors: status from ERROR_TABLE, message prefixed with the v0.3 error class name', async () => {
    const missing = await rejection(unary('getTask', { name: 'tasks/no-such-task', historyLength: 0 }));
    expect(missing.code).toBe(GrpcCode.NOT_FOUND);
    expect(missing.details).toBe('TaskNotFoundError: Task no-such-task not found');
    const badName = await rejection(unary('getTask', { name: 'no-such-task', historyLength: 0 }));
    expect(badName.code).toBe(GrpcCode.INVALID_ARGUMENT);
    expect(badName.details).toMatch(/^InvalidParamsError: Invalid name: expected a resource name of the form tasks\/\{id\}/);
    expect(detailsOf(badName).badRequest?.fieldViolations[0]?.field).toBe('name');
    // A v1.0 version on the v0.3 service is refused by the core's version check.
    const v1 = await rejection(unary('getTask', { name: 'tasks/x', historyLength: 0 }, { 'a2a-version': '1.0' }));
    expect(v1.code).toBe(GrpcCode.FAILED_PRECONDITION);
    expect(detailsOf(v1).info?.reason).toBe(A2AErrorCode.VersionNotSupported);
  });

  it('malformed bytes → INVALID_ARGUMENT JSONParseError, never a crash', async () => {
    const raw = await rawUnary(t.url, '/a2a.v1.A2AService/GetTask', Buffer.from([0x0a, 0x7f, 0x41]), {});
    expect(raw.error?.code).toBe(GrpcCode.INVALID_ARGUMENT);
    expect(raw.error?.details).toMatch(/^JSONParseError: Malformed request/);
    const ok = await unary<SendMessageRequest, SendMessageResponse>('sendMessage', send('echo alive'));
    expect(ok.payload?.$case).toBe('msg');
  });

  it('push configs: create (parent + config_id), get, list, delete by resource name', async () => {
    const task = taskOf(await unary('sendMessage', send('input')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const create = CreateTaskPushNotificationConfigRequest.fromPartial({
      parent: `tasks/${task.id}`,
      configId: 'cfg1',
      config: {
        name: `tasks/${task.id}/pushNotificationConfigs/cfg1`,
        pushNotificationConfig: { url: 'http://127.0.0.1:9/hook', token: 'tok', authentication: { schemes: ['Bearer'], credentials: 'c' } },
      },
    });
    const created = await unary<unknown, TaskPushNotificationConfig>('createTaskPushNotificationConfig', create);
    expect(created.name).toBe(`tasks/${task.id}/pushNotificationConfigs/cfg1`);
    expect(created.pushNotificationConfig).toMatchObject({ id: 'cfg1', url: 'http://127.0.0.1:9/hook', token: 'tok', authentication: { schemes: ['Bearer'] } });
    const got = await unary<unknown, TaskPushNotificationConfig>('getTaskPushNotificationConfig', { name: created.name });
    const redacted = { ...created.pushNotificationConfig, token: '********', authentication: { schemes: ['Bearer'], credentials: '********' } };
    expect(got).toEqual({ ...created, pushNotificationConfig: redacted });
    const list = await unary<unknown, ListTaskPushNotificationConfigResponse>('listTaskPushNotificationConfig', {
      parent: `tasks/${task.id}`,
      pageSize: 0,
      pageToken: '',
    });
    expect(list.configs).toEqual([got]);
    await unary('deleteTaskPushNotificationConfig', { name: created.name });
    const gone = await rejection(unary('getTaskPushNotificationConfig', { name: created.name }));
    expect(gone.code).toBe(GrpcCode.NOT_FOUND);
    // The multi-turn task still completes over v0.3.
    const done = taskOf(await unary('sendMessage', send('more', { taskId: task.id, contextId: task.contextId })));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('GetAgentCard answers the extended card in its v0.3 form', async () => {
    const card = await unary<unknown, AgentCard>('getAgentCard', {});
    expect(card.name).toBe('grpc-test (extended)');
    expect(card.protocolVersion).toBe('0.3.0');
    expect(card.supportsAuthenticatedExtendedCard).toBe(true);
  });

  it('shutdown ends open v0.3 streams with UNAVAILABLE', async () => {
    const own = await startTestServer();
    const c = new V03A2AServiceClient(own.url, credentials.createInsecure());
    const stream = c.sendStreamingMessage(send('hang'));
    const seen: StreamResponse[] = [];
    stream.on('data', (e: StreamResponse) => seen.push(e));
    const failed = new Promise<ServiceError>((resolve) => stream.on('error', resolve));
    await waitFor(() => seen.length > 0 && own.server.v03Service!.openStreams === 1);
    await own.close();
    expect((await failed).code).toBe(GrpcCode.UNAVAILABLE);
    c.close();
  });
});
