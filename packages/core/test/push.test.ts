import { Role, TaskState, type StreamResponse, type TaskPushNotificationConfig } from '@a2a-polyglot/model';
import { A2AErrorCode, callContext, checkWebhookUrl, FetchPushSender, InMemoryPushConfigStore, RequestHandler, silentLogger, textPart, type PushConfigStore, type PushSender } from '../src/index.js';
import { PushDispatcher } from '../src/push/push-dispatcher.js';
import { testCard } from './fixtures.js';

const config: TaskPushNotificationConfig = { tenant: '', id: 'c1', taskId: 't1', url: 'https://hooks.example.com/a2a', token: 'tok', authentication: { scheme: 'Bearer', credentials: 'secret' } };
const event: StreamResponse = { payload: { $case: 'statusUpdate', value: { taskId: 't1', contextId: 'c', status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined }, metadata: undefined } } };

describe('FetchPushSender', () => {
  it('posts a StreamResponse with auth and token headers', async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const sender = new FetchPushSender({ fetch: (async (url: string, init: RequestInit) => (calls.push({ url, init }), new Response(null, { status: 204 }))) as never });
    await sender.send(config, event);
    expect(calls).toHaveLength(1);
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers).toMatchObject({ 'content-type': 'application/a2a+json', authorization: 'Bearer secret', 'x-a2a-notification-token': 'tok' });
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ statusUpdate: { taskId: 't1', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } });
  });

  it('retries 5xx and network errors with backoff, not 4xx', async () => {
    let n = 0;
    const flaky = new FetchPushSender({ backoffMs: 1, attempts: 3, logger: silentLogger, fetch: (async () => (++n === 1 ? Promise.reject(new Error('ECONNREFUSED')) : new Response(null, { status: n === 2 ? 503 : 200 }))) as never });
    await flaky.send(config, event);
    expect(n).toBe(3);
    let m = 0;
    const rejected = new FetchPushSender({ backoffMs: 1, logger: silentLogger, fetch: (async () => (m++, new Response(null, { status: 400 }))) as never });
    await rejected.send(config, event);
    expect(m).toBe(1);
  });
});

describe('webhook URL guard', () => {
  it.each(['http://127.0.0.1:9/x', 'http://localhost/x', 'http://10.1.2.3/', 'http://192.168.0.1/', 'http://172.20.0.1/', 'http://169.254.169.254/latest', 'http://[::1]/', 'ftp://example.com/', 'not a url'])(
    'rejects %s by default',
    (url) => expect(() => checkWebhookUrl(url, false)).toThrow(expect.objectContaining({ code: A2AErrorCode.InvalidParams })),
  );
  it('accepts public hosts, and private ones when allowed', () => {
    expect(() => checkWebhookUrl('https://hooks.example.com/a', false)).not.toThrow();
    expect(() => checkWebhookUrl('http://127.0.0.1:9/x', true)).not.toThrow();
  });
});

describe('push delivery through the handler', () => {
  it('delivers every task event, in order, to a webhook registered inline', async () => {
    const delivered: StreamResponse[] = [];
    const sender: PushSender = { send: async (_c, e) => void delivered.push(e) };
    const h = new RequestHandler({
      card: testCard(),
      pushSender: sender,
      allowPrivateWebhooks: true,
      logger: silentLogger,
      executor: { async execute(c) { c.working(); c.artifact({ text: 'x', lastChunk: true }); c.complete(); } },
    });
    await h.sendMessage(
      {
        tenant: '',
        message: { messageId: 'm', contextId: '', taskId: '', role: Role.ROLE_USER, parts: [textPart('hi')], metadata: undefined, extensions: [], referenceTaskIds: [] },
        configuration: { acceptedOutputModes: [], returnImmediately: false, taskPushNotificationConfig: { tenant: '', id: '', taskId: '', url: 'http://127.0.0.1:1/hook', token: '', authentication: undefined } },
        metadata: undefined,
      },
      callContext('IN-PROCESS', { 'a2a-version': '1.0' }),
    );
    await (h as unknown as { push: { idle(): Promise<void> } }).push.idle();
    expect(delivered.map((e) => e.payload?.$case)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
  });
});

describe('PushDispatcher lookups', () => {
  it('skips the lookup for a task without webhooks, and delivers to one registered later', async () => {
    const configs = new InMemoryPushConfigStore();
    let lists = 0;
    const list = configs.list.bind(configs);
    configs.list = (tenant, taskId) => (lists++, list(tenant, taskId));
    const delivered: StreamResponse[] = [];
    const dispatcher = new PushDispatcher(configs, { send: async (_c, e) => void delivered.push(e) }, silentLogger);
    dispatcher.dispatch('', 't1', event);
    await dispatcher.idle();
    expect(lists).toBe(0);
    expect(delivered).toHaveLength(0);
    await configs.put('', config);
    dispatcher.dispatch('', 't1', event);
    await dispatcher.idle();
    expect(lists).toBe(1);
    expect(delivered).toEqual([event]);
  });

  it('looks up every event when the store gives no hint', async () => {
    const inner = new InMemoryPushConfigStore();
    let lists = 0;
    const store: PushConfigStore = {
      put: (t, c) => inner.put(t, c),
      get: (t, k, i) => inner.get(t, k, i),
      list: (t, k) => (lists++, inner.list(t, k)),
      delete: (t, k, i) => inner.delete(t, k, i),
      deleteAll: (t, k) => inner.deleteAll(t, k),
    };
    const dispatcher = new PushDispatcher(store, { send: async () => undefined }, silentLogger);
    dispatcher.dispatch('', 't1', event);
    dispatcher.dispatch('', 't1', event);
    await dispatcher.idle();
    expect(lists).toBe(2);
  });
});
