import { TaskState, type StreamResponse, type TaskPushNotificationConfig } from '@a2a-polyglot/model';
import { testAgentCard, userSend } from '@a2a-polyglot/testing';
import { callContext, HttpPushSender, InMemoryPushConfigStore, RequestHandler, silentLogger, type PushConfigStore, type PushSender } from '../src/index.js';
import { PushDispatcher } from '../src/push/push-dispatcher.js';

const config: TaskPushNotificationConfig = {
  tenant: '',
  id: 'c1',
  taskId: 't1',
  url: 'https://hooks.example.com/a2a',
  token: 'tok',
  authentication: { scheme: 'Bearer', credentials: 'secret' },
};
const event: StreamResponse = {
  payload: {
    $case: 'statusUpdate',
    value: { taskId: 't1', contextId: 'c', status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined }, metadata: undefined },
  },
};

const publicResolver = async () => [{ address: '93.184.216.34', family: 4 }];

describe('HttpPushSender', () => {
  it('posts a StreamResponse with auth and token headers', async () => {
    const calls: Array<{ url: string; headers: Readonly<Record<string, string>>; body: string }> = [];
    const sender = new HttpPushSender({ resolve: publicResolver, transport: async (target, post) => (calls.push({ url: target.url.href, ...post }), 204) });
    await sender.send(config, event);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('https://hooks.example.com/a2a');
    expect(calls[0]!.headers).toMatchObject({ 'content-type': 'application/a2a+json', authorization: 'Bearer secret', 'x-a2a-notification-token': 'tok' });
    expect(JSON.parse(calls[0]!.body)).toEqual({ statusUpdate: { taskId: 't1', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } });
  });

  it('retries 5xx and network errors with backoff, not 4xx', async () => {
    let n = 0;
    const flaky = new HttpPushSender({
      backoffMs: 1,
      attempts: 3,
      logger: silentLogger,
      resolve: publicResolver,
      transport: async () => (++n === 1 ? Promise.reject(new Error('ECONNREFUSED')) : n === 2 ? 503 : 200),
    });
    await flaky.send(config, event);
    expect(n).toBe(3);
    let m = 0;
    const rejected = new HttpPushSender({ backoffMs: 1, logger: silentLogger, resolve: publicResolver, transport: async () => (m++, 400) });
    await rejected.send(config, event);
    expect(m).toBe(1);
  });
});

describe('push outcomes', () => {
  it('says how each delivery ended: delivered, rejected, refused or failed', async () => {
    const answering = (status: number) =>
      new HttpPushSender({ backoffMs: 1, attempts: 2, logger: silentLogger, resolve: publicResolver, transport: async () => status });
    expect(await answering(204).send(config, event)).toBe('delivered');
    expect(await answering(404).send(config, event)).toBe('rejected');
    expect(await answering(302).send(config, event)).toBe('rejected');
    expect(await answering(503).send(config, event)).toBe('failed');
    expect(await answering(429).send(config, event)).toBe('failed');
    const privateTarget = new HttpPushSender({ logger: silentLogger, resolve: async () => [{ address: '10.0.0.1', family: 4 }], transport: async () => 204 });
    expect(await privateTarget.send(config, event)).toBe('refused');
  });

  it("reports each delivery's outcome to the observer, and an event whose configs could not be read as dropped", async () => {
    const outcomes: string[] = [];
    const observer = { operationStarted: () => ({ done: () => undefined }), pushDelivered: (outcome: string) => void outcomes.push(outcome) };
    const configs = new InMemoryPushConfigStore();
    await configs.put('', config);
    const dispatcher = new PushDispatcher(configs, { send: async () => 'delivered' as const }, silentLogger, observer);
    dispatcher.dispatch('', 't1', event);
    await dispatcher.idle();
    expect(outcomes).toEqual(['delivered']);
    configs.list = async () => Promise.reject(new Error('store down'));
    dispatcher.dispatch('', 't1', event);
    await dispatcher.idle();
    expect(outcomes).toEqual(['delivered', 'dropped']);
    const silent = new PushDispatcher(configs, { send: async () => undefined }, silentLogger, observer);
    configs.list = async () => [config as never];
    silent.dispatch('', 't1', event);
    await silent.idle();
    expect(outcomes).toEqual(['delivered', 'dropped']);
  });
});

describe('push delivery through the handler', () => {
  it('delivers every task event, in order, to a webhook registered inline', async () => {
    const delivered: StreamResponse[] = [];
    const sender: PushSender = { send: async (_c, e) => void delivered.push(e) };
    const h = new RequestHandler({
      card: testAgentCard(),
      pushSender: sender,
      allowPrivateWebhooks: true,
      logger: silentLogger,
      executor: {
        async execute(c) {
          c.working();
          c.artifact({ text: 'x', lastChunk: true });
          c.complete();
        },
      },
    });
    await h.sendMessage(
      userSend('hi', {
        configuration: {
          returnImmediately: false,
          taskPushNotificationConfig: { tenant: '', id: '', taskId: '', url: 'http://127.0.0.1:1/hook', token: '', authentication: undefined },
        },
      }),
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

  it('gives a config registered while a lookup is pending no event older than itself', async () => {
    const inner = new InMemoryPushConfigStore();
    let releaseFirstLookup!: () => void;
    const firstLookupHeld = new Promise<void>((resolve) => (releaseFirstLookup = resolve));
    let lists = 0;
    // A database store: no hint, and the first lookup answers only after the config is saved.
    const store: PushConfigStore = {
      put: (t, c) => inner.put(t, c),
      get: (t, k, i) => inner.get(t, k, i),
      list: async (t, k) => {
        if (lists++ === 0) await firstLookupHeld;
        return inner.list(t, k);
      },
      delete: (t, k, i) => inner.delete(t, k, i),
      deleteAll: (t, k) => inner.deleteAll(t, k),
    };
    const delivered: StreamResponse[] = [];
    const dispatcher = new PushDispatcher(store, { send: async (_c, e) => void delivered.push(e) }, silentLogger);
    const before: StreamResponse = { ...event, payload: { $case: 'task', value: { id: 't1' } as never } };
    dispatcher.dispatch('', 't1', before);
    dispatcher.registered('', 't1', config.id);
    await store.put('', config);
    dispatcher.dispatch('', 't1', event);
    releaseFirstLookup();
    await dispatcher.idle();
    expect(lists).toBe(2);
    expect(delivered).toEqual([event]);
    // Once the chain is idle the fence is gone: the next event reaches the config as usual.
    dispatcher.dispatch('', 't1', before);
    await dispatcher.idle();
    expect(delivered).toEqual([event, before]);
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
