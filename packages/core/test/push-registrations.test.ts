import { TaskState, type StreamResponse, type TaskPushNotificationConfig } from '@a2a-polyglot/model';
import { recordingLogger, testAgentCard, userSend } from '@a2a-polyglot/testing';
import {
  A2AError,
  callContext,
  HttpPushSender,
  InMemoryPushConfigStore,
  RequestHandler,
  silentLogger,
  type ProtocolVersion,
  type StoredPushConfig,
  type WebhookEncoding,
} from '../src/index.js';
import { REDACTED_SECRET } from '../src/push/push-config-redaction.js';

/** What a registration's Get, List and webhook look like, per generation of the call that made it. */

const ctx = (wireVersion: ProtocolVersion = '1.0') => callContext('IN-PROCESS', { 'a2a-version': wireVersion }, wireVersion === '0.3' ? { wireVersion } : {});

function setup() {
  const configs = new InMemoryPushConfigStore();
  const handler = new RequestHandler({
    card: testAgentCard(),
    pushConfigStore: configs,
    allowPrivateWebhooks: true,
    logger: silentLogger,
    executor: {
      async execute(c) {
        c.working();
        c.requireInput('more?');
      },
    },
  });
  return { handler, configs };
}

async function newTask(handler: RequestHandler): Promise<string> {
  const sent = await handler.sendMessage(userSend('hi'), ctx());
  if (sent.payload?.$case !== 'task') throw new Error('expected a task');
  return sent.payload.value.id;
}

const registration = (taskId: string, id: string): TaskPushNotificationConfig => ({
  tenant: '',
  id,
  taskId,
  url: 'http://127.0.0.1:1/hook',
  token: 'tok-secret-123',
  authentication: { scheme: 'Bearer', credentials: 'cred-secret-456' },
});

describe('push config secrets', () => {
  it.each(['1.0', '0.3'] as const)('Get and List (v%s) answer token and credentials redacted; Create answers its caller what it sent', async (version) => {
    const { handler } = setup();
    const taskId = await newTask(handler);
    const created = await handler.createTaskPushNotificationConfig(registration(taskId, 'c1'), ctx(version));
    expect(created).toEqual({ ...registration(taskId, 'c1') });
    const redacted = { ...registration(taskId, 'c1'), token: REDACTED_SECRET, authentication: { scheme: 'Bearer', credentials: REDACTED_SECRET } };
    expect(await handler.getTaskPushNotificationConfig({ tenant: '', taskId, id: 'c1' }, ctx(version))).toEqual(redacted);
    const listed = await handler.listTaskPushNotificationConfigs({ tenant: '', taskId, pageSize: 0, pageToken: '' }, ctx(version));
    expect(listed.configs).toEqual([redacted]);
    expect(JSON.stringify(listed)).not.toMatch(/secret/);
  });

  it('leaves unset secrets unset (no placeholder for what was never given)', async () => {
    const { handler } = setup();
    const taskId = await newTask(handler);
    await handler.createTaskPushNotificationConfig({ ...registration(taskId, 'c1'), token: '', authentication: { scheme: 'Bearer', credentials: '' } }, ctx());
    const got = await handler.getTaskPushNotificationConfig({ tenant: '', taskId, id: 'c1' }, ctx());
    expect(got.token).toBe('');
    expect(got.authentication).toEqual({ scheme: 'Bearer', credentials: '' });
  });

  it('refuses the placeholder as a secret, so a config read back and registered again keeps no asterisks', async () => {
    const { handler } = setup();
    const taskId = await newTask(handler);
    await handler.createTaskPushNotificationConfig(registration(taskId, 'c1'), ctx());
    const readBack = await handler.getTaskPushNotificationConfig({ tenant: '', taskId, id: 'c1' }, ctx());
    const refusal = await handler.createTaskPushNotificationConfig(readBack, ctx()).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(A2AError);
    expect((refusal as A2AError).fieldViolations.map((v) => v.field)).toEqual(['token']);
  });

  it('keeps the real secrets in the store, for delivery', async () => {
    const { handler, configs } = setup();
    const taskId = await newTask(handler);
    await handler.createTaskPushNotificationConfig(registration(taskId, 'c1'), ctx());
    expect(await configs.get('', taskId, 'c1')).toMatchObject({ token: 'tok-secret-123', authentication: { credentials: 'cred-secret-456' } });
  });
});

describe('push config generation', () => {
  it('remembers the generation of the call that registered a config, also for an inline one', async () => {
    const { handler, configs } = setup();
    const taskId = await newTask(handler);
    await handler.createTaskPushNotificationConfig(registration(taskId, 'v1'), ctx('1.0'));
    await handler.createTaskPushNotificationConfig(registration(taskId, 'v03'), ctx('0.3'));
    const inline = await handler.sendMessage(
      userSend('hi', { configuration: { returnImmediately: false, taskPushNotificationConfig: registration('', 'inline') } }),
      ctx('0.3'),
    );
    const inlineTask = inline.payload?.$case === 'task' ? inline.payload.value.id : '';
    expect((await configs.list('', taskId)).map((c) => [c.id, c.protocolVersion])).toEqual([
      ['v1', '1.0'],
      ['v03', '0.3'],
    ]);
    expect((await configs.list('', inlineTask)).map((c) => c.protocolVersion)).toEqual(['0.3']);
    // The generation is a store-side fact: no read answers it.
    expect(await handler.getTaskPushNotificationConfig({ tenant: '', taskId, id: 'v03' }, ctx('0.3'))).not.toHaveProperty('protocolVersion');
  });

  it('answers a v0.3 list with every config in one page; a v1.0 list is still paged', async () => {
    const { handler } = setup();
    const taskId = await newTask(handler);
    for (let i = 0; i < 130; i++) await handler.createTaskPushNotificationConfig({ ...registration(taskId, `c${i}`) }, ctx());
    const v03 = await handler.listTaskPushNotificationConfigs({ tenant: '', taskId, pageSize: 0, pageToken: '' }, ctx('0.3'));
    expect(v03.configs).toHaveLength(130);
    expect(v03.nextPageToken).toBe('');
    const v1 = await handler.listTaskPushNotificationConfigs({ tenant: '', taskId, pageSize: 0, pageToken: '' }, ctx('1.0'));
    expect(v1.configs).toHaveLength(50);
    expect(v1.nextPageToken).toBe('50');
  });
});

describe('HttpPushSender generations', () => {
  const event: StreamResponse = {
    payload: {
      $case: 'statusUpdate',
      value: { taskId: 't1', contextId: 'c', status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined }, metadata: undefined },
    },
  };
  const config: StoredPushConfig = { ...registration('t1', 'c1'), url: 'https://hooks.example.com/a2a' };
  const v03: WebhookEncoding = { contentType: 'application/json', body: (e) => `v03:${e.payload?.$case}` };

  function capture(options: { encodings?: Record<string, WebhookEncoding>; logger?: ReturnType<typeof recordingLogger> } = {}) {
    const calls: Array<{ headers: Readonly<Record<string, string>>; body: string }> = [];
    const sender = new HttpPushSender({
      ...options,
      resolve: async () => [{ address: '93.184.216.34', family: 4 }],
      transport: async (_target, post) => (calls.push(post), 204),
    });
    return { sender, calls };
  }

  it('writes a v0.3 registration with the v0.3 encoding, a v1.0 one (or one stored before generations) as v1.0', async () => {
    const { sender, calls } = capture({ encodings: { '0.3': v03 } });
    await sender.send({ ...config, protocolVersion: '0.3' }, event);
    await sender.send({ ...config, protocolVersion: '1.0' }, event);
    await sender.send(config, event);
    expect(calls.map((c) => [c.headers['content-type'], c.body.slice(0, 16)])).toEqual([
      ['application/json', 'v03:statusUpdate'],
      ['application/a2a+json', '{"statusUpdate":'],
      ['application/a2a+json', '{"statusUpdate":'],
    ]);
    for (const call of calls) expect(call.headers).toMatchObject({ authorization: 'Bearer cred-secret-456', 'x-a2a-notification-token': 'tok-secret-123' });
  });

  it('falls back to v1.0 bodies for a generation it has no encoding for, and says so once', async () => {
    const logger = recordingLogger();
    const { sender, calls } = capture({ logger });
    await sender.send({ ...config, protocolVersion: '0.3' }, event);
    await sender.send({ ...config, protocolVersion: '0.3' }, event);
    expect(calls.map((c) => c.headers['content-type'])).toEqual(['application/a2a+json', 'application/a2a+json']);
    expect(logger.messages('warn').filter((m) => m.includes('no webhook encoding'))).toHaveLength(1);
  });
});
