import { createHash } from 'node:crypto';
import { Message, Role, SendMessageConfiguration, SendMessageRequest, TaskPushNotificationConfig, TaskState } from '@a2a-polyglot/model';
import canonicalize from 'canonicalize';
import { testAgentCard, userSend, waitFor } from '@a2a-polyglot/testing';
import {
  A2AError,
  A2AErrorCode,
  ApiKeyAuthenticator,
  callContext,
  InMemoryEventLog,
  InMemoryIdempotencyStore,
  InMemoryTaskStore,
  RequestHandler,
  type AgentExecutor,
  type LoggedEvent,
} from '../src/index.js';
import { bodyText, INLINE_BODY_MAX, SendBody } from '../src/send-body.js';

const ctx = () => callContext('IN-PROCESS', { 'a2a-version': '1.0' });
const as = (key: string) => callContext('IN-PROCESS', { 'a2a-version': '1.0', 'x-api-key': key });

async function collect(stream: AsyncIterable<LoggedEvent>): Promise<LoggedEvent[]> {
  const out: LoggedEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

/** Counts its runs; 'reply' answers with a message, 'park' waits until released, anything else completes. */
function countingAgent() {
  const parked: Array<() => void> = [];
  const agent = {
    runs: 0,
    release: () => {
      for (const go of parked.splice(0)) go();
    },
    executor: {
      async execute(c) {
        agent.runs++;
        if (c.text === 'reply') return c.reply(`reply ${agent.runs}`);
        c.working();
        if (c.text === 'park') await new Promise<void>((go) => parked.push(go));
        c.complete(`done ${agent.runs}`);
      },
    } as AgentExecutor,
  };
  return agent;
}

const withId = (text: string, messageId: string, extra: Partial<Message> = {}): SendMessageRequest => userSend(text, { message: { messageId, ...extra } });
const taskOf = (res: Awaited<ReturnType<RequestHandler['sendMessage']>>) => {
  if (res.payload?.$case !== 'task') throw new Error(`expected a task, got ${res.payload?.$case}`);
  return res.payload.value;
};

describe('idempotent sends', () => {
  it('answers a repeated send with the first send’s task instead of running the agent again', async () => {
    const agent = countingAgent();
    const h = new RequestHandler({ card: testAgentCard(), executor: agent.executor });
    const first = taskOf(await h.sendMessage(withId('hi', 'm-1'), ctx()));
    const again = taskOf(await h.sendMessage(withId('hi', 'm-1'), ctx()));
    expect(again.id).toBe(first.id);
    expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(agent.runs).toBe(1);
    // Another id is another send.
    expect(taskOf(await h.sendMessage(withId('hi', 'm-2'), ctx())).id).not.toBe(first.id);
    expect(agent.runs).toBe(2);
  });

  it('answers a repeated send of a message reply with the same message', async () => {
    const agent = countingAgent();
    const h = new RequestHandler({ card: testAgentCard(), executor: agent.executor });
    const first = await h.sendMessage(withId('reply', 'm-r'), ctx());
    const again = await h.sendMessage(withId('reply', 'm-r'), ctx());
    expect(first.payload?.$case).toBe('message');
    expect(again).toEqual(first);
    expect(agent.runs).toBe(1);
  });

  it('refuses the same messageId with a different body with InvalidParams', async () => {
    const agent = countingAgent();
    const h = new RequestHandler({ card: testAgentCard(), executor: agent.executor });
    await h.sendMessage(withId('hi', 'm-x'), ctx());
    const refused = await h.sendMessage(withId('something else', 'm-x'), ctx()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(A2AError);
    expect((refused as A2AError).code).toBe(A2AErrorCode.InvalidParams);
    expect((refused as A2AError).message).toMatch(/messageId m-x was already sent with a different message/);
    const metadata = await h.sendMessage({ ...withId('hi', 'm-x'), metadata: { extra: 1 } }, ctx()).catch((e: unknown) => e);
    expect((metadata as A2AError).code).toBe(A2AErrorCode.InvalidParams);
    expect(agent.runs).toBe(1);
  });

  it('runs 100 concurrent sends of 10 distinct messageIds exactly 10 times', async () => {
    const agent = countingAgent();
    const h = new RequestHandler({ card: testAgentCard(), executor: agent.executor });
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => h.sendMessage(withId('hi', `m-${i % 10}`), ctx())));
    const ids = new Set(answers.map((a) => taskOf(a).id));
    expect(ids.size).toBe(10);
    expect(agent.runs).toBe(10);
  });

  it('keeps principals apart: two callers may use the same messageId', async () => {
    const agent = countingAgent();
    const authenticator = new ApiKeyAuthenticator({ keys: { ka: 'alice', kb: 'bob' } });
    const h = new RequestHandler({ card: testAgentCard(), executor: agent.executor, authenticator });
    const a = taskOf(await h.sendMessage(withId('hi', 'shared'), as('ka')));
    const b = taskOf(await h.sendMessage(withId('hi', 'shared'), as('kb')));
    expect(a.id).not.toBe(b.id);
    expect(taskOf(await h.sendMessage(withId('hi', 'shared'), as('kb'))).id).toBe(b.id);
    expect(agent.runs).toBe(2);
  });

  it('answers a streaming replay of a running task like SubscribeToTask, and of an ended one with the task', async () => {
    const agent = countingAgent();
    const h = new RequestHandler({ card: testAgentCard(), executor: agent.executor });
    const first = await h.sendStreamingMessage(withId('park', 'm-s'), ctx());
    const firstEvents = collect(first);
    await waitFor(() => h.activeRuns === 1);
    const replay = collect(await h.sendStreamingMessage(withId('park', 'm-s'), ctx()));
    agent.release();
    const [original, replayed] = await Promise.all([firstEvents, replay]);
    const taskId = original[0]?.event.payload?.$case === 'task' ? original[0].event.payload.value.id : undefined;
    expect(replayed[0]?.event.payload?.$case).toBe('task');
    expect(replayed[0]?.event.payload?.value).toMatchObject({ id: taskId });
    const last = replayed.at(-1)?.event.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(agent.runs).toBe(1);

    const ended = await collect(await h.sendStreamingMessage(withId('park', 'm-s'), ctx()));
    expect(ended).toHaveLength(1);
    expect(ended[0]?.event.payload).toMatchObject({ $case: 'task', value: { id: taskId, status: { state: TaskState.TASK_STATE_COMPLETED } } });
    // Blocking and streaming sends share the key: a blocking replay answers the same task.
    expect(taskOf(await h.sendMessage(withId('park', 'm-s'), ctx())).id).toBe(taskId);
    expect(agent.runs).toBe(1);
  });

  it('holds across two handlers sharing their stores: a blocking replay on the other waits for the task to end', async () => {
    const agent = countingAgent();
    const shared = { taskStore: new InMemoryTaskStore(), eventLog: new InMemoryEventLog(), idempotencyStore: new InMemoryIdempotencyStore() };
    const a = new RequestHandler({ card: testAgentCard(), executor: agent.executor, ...shared, cluster: { instanceId: 'a' } });
    const b = new RequestHandler({ card: testAgentCard(), executor: agent.executor, ...shared, cluster: { instanceId: 'b' } });
    const first = a.sendMessage(withId('park', 'm-two'), ctx());
    await waitFor(() => a.activeRuns === 1);
    let replayed = false;
    const replay = b.sendMessage(withId('park', 'm-two'), ctx()).then((r) => {
      replayed = true;
      return r;
    });
    // Still running on a: b's blocking replay waits, as the first send does (a bounded negative
    // check: without the wait the replay answers the WORKING task within a tick or two).
    await new Promise((r) => setTimeout(r, 50));
    expect(replayed).toBe(false);
    expect(b.activeRuns).toBe(0);
    agent.release();
    const [one, two] = await Promise.all([first, replay]);
    expect(taskOf(two).id).toBe(taskOf(one).id);
    expect(taskOf(two).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(agent.runs).toBe(1);
    await Promise.all([a.shutdown(0), b.shutdown(0)]);
  });

  it('lets the retry of a refused send run (the claim is released)', async () => {
    const agent = countingAgent();
    const store = new InMemoryIdempotencyStore();
    const h = new RequestHandler({ card: testAgentCard(), executor: agent.executor, idempotencyStore: store });
    const badHistory: SendMessageRequest = { ...withId('hi', 'm-bad'), configuration: SendMessageConfiguration.fromPartial({ historyLength: -1 }) };
    await expect(h.sendMessage(badHistory, ctx())).rejects.toMatchObject({ code: A2AErrorCode.InvalidParams });
    await waitFor(() => store.size === 0);
    expect(taskOf(await h.sendMessage(withId('hi', 'm-bad'), ctx())).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('runs every send again with idempotencyWindowMs 0', async () => {
    const agent = countingAgent();
    const h = new RequestHandler({ card: testAgentCard(), executor: agent.executor, idempotencyWindowMs: 0 });
    const a = taskOf(await h.sendMessage(withId('hi', 'm-1'), ctx()));
    const b = taskOf(await h.sendMessage(withId('hi', 'm-1'), ctx()));
    expect(a.id).not.toBe(b.id);
    expect(agent.runs).toBe(2);
  });
});

describe('SendBody', () => {
  /** A short body's, which is made at once. */
  const body = (request: SendMessageRequest) => {
    const made = SendBody.of(request);
    if (made instanceof Promise) throw new Error('a short body is made at once');
    return made;
  };

  it('matches a retry whatever its messageId, metadata member order and answer-shaping options, not other content', () => {
    const base = withId('hi', 'a');
    const first = body({ ...base, metadata: { a: 1, b: 2 } });
    expect(first.fingerprint.startsWith('{')).toBe(true);
    expect(body({ ...withId('hi', 'b'), metadata: { b: 2, a: 1 } }).matches(first.fingerprint)).toBe(true);
    expect(
      body({ ...base, metadata: { a: 1, b: 2 }, configuration: SendMessageConfiguration.fromPartial({ historyLength: 3, returnImmediately: true }) }).matches(
        first.fingerprint,
      ),
    ).toBe(true);
    expect(body({ ...withId('ho', 'a'), metadata: { a: 1, b: 2 } }).matches(first.fingerprint)).toBe(false);
    expect(body({ ...base, metadata: { a: 1, b: 3 } }).matches(first.fingerprint)).toBe(false);
  });

  it('keeps the inline fingerprint stores already hold: the generated ProtoJSON path, written directly', () => {
    const generated = (request: SendMessageRequest) =>
      JSON.stringify({
        message: request.message ? Message.toJSON({ ...request.message, messageId: '' }) : null,
        metadata: request.metadata ?? null,
        acceptedOutputModes: request.configuration?.acceptedOutputModes ?? [],
        push: request.configuration?.taskPushNotificationConfig ? TaskPushNotificationConfig.toJSON(request.configuration.taskPushNotificationConfig) : null,
      });
    const shapes: SendMessageRequest[] = [
      withId('hi', 'a'),
      { ...withId('h\u00e9 "quoted" \n', 'a'), metadata: { b: [1, { c: null }], a: 'x' } },
      SendMessageRequest.fromPartial({
        message: {
          messageId: 'm',
          contextId: 'c-1',
          taskId: 't-1',
          role: Role.ROLE_USER,
          parts: [
            { content: { $case: 'data', value: { k: [true, 2.5] } }, mediaType: 'application/json', filename: 'f.json' },
            { content: { $case: 'url', value: 'https://example.com/a' } },
            { content: { $case: 'raw', value: new Uint8Array([0, 255, 7]) }, metadata: { n: 1 } },
          ],
          metadata: { m: 'v' },
          extensions: ['https://example.com/ext'],
          referenceTaskIds: ['t-0'],
        },
        configuration: {
          acceptedOutputModes: ['text/plain', 'application/json'],
          taskPushNotificationConfig: { id: 'p', url: 'https://hooks.example.com/a2a', token: 'tok' },
        },
      }),
      SendMessageRequest.fromPartial({}),
    ];
    for (const request of shapes) expect(bodyText(request)).toBe(generated(request));
    expect(body(shapes[1] as SendMessageRequest).fingerprint).toBe(generated(shapes[1] as SendMessageRequest));
  });

  it('fingerprints a long body by its SHA-256, and matches the hashes stores kept before inline fingerprints', async () => {
    const long = await SendBody.of({ ...withId('x'.repeat(INLINE_BODY_MAX), 'a'), metadata: { a: 1, b: 2 } });
    expect(long.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect((await SendBody.of({ ...withId('x'.repeat(INLINE_BODY_MAX), 'b'), metadata: { b: 2, a: 1 } })).fingerprint).toBe(long.fingerprint);
    // The stored form rows already hold: SHA-256 of the canonical JSON of what the send asks for.
    const request = { ...withId('x'.repeat(INLINE_BODY_MAX), 'a'), metadata: { a: 1, b: 2 } };
    const asked = { message: Message.toJSON({ ...request.message!, messageId: '' }), metadata: { a: 1, b: 2 }, acceptedOutputModes: [], push: null };
    expect(long.fingerprint).toBe(createHash('sha256').update(canonicalize(asked)!).digest('hex'));
    const short = body({ ...withId('hi', 'a'), metadata: { a: 1, b: 2 } });
    expect(short.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(body({ ...withId('hi', 'c'), metadata: { b: 2, a: 1 } }).matches(short.hash)).toBe(true);
    expect(body(withId('ho', 'c')).matches(short.hash)).toBe(false);
    expect(short.matches(long.fingerprint)).toBe(false);
    expect(long.matches(short.fingerprint)).toBe(false);
  });
});

describe('InMemoryIdempotencyStore', () => {
  const key = (messageId: string) => ({ principal: '', tenant: '', messageId });

  it('evicts the least recently used sends past maxKeys, in a batch, and takes over an expired one', async () => {
    const store = new InMemoryIdempotencyStore({ maxKeys: 10 });
    for (let i = 0; i < 10; i++) expect(await store.claim(key(`k${i}`), 'h', i, 1000)).toEqual({ kind: 'new' });
    await store.record(key('k0'), 'h', { kind: 'task', taskId: 't-0' }, 1000);
    // A replay makes k0 the most recently used.
    expect(await store.claim(key('k0'), 'h', 20, 1000)).toEqual({ kind: 'existing', fingerprint: 'h', outcome: { kind: 'task', taskId: 't-0' } });
    expect(await store.claim(key('k10'), 'h', 21, 1000)).toEqual({ kind: 'new' });
    // Over the bound: trimmed to 90 % of it, the least recently used first (k1, k2).
    expect(store.size).toBe(9);
    expect(await store.claim(key('k0'), 'h', 22, 1000)).toMatchObject({ kind: 'existing' });
    expect(await store.claim(key('k3'), 'h', 23, 1000)).toMatchObject({ kind: 'existing' });
    expect(await store.claim(key('k1'), 'other', 24, 1000)).toEqual({ kind: 'new' });
    // k3's claim expired at 1000 without an outcome: a retry takes it over.
    expect(await store.claim(key('k3'), 'h2', 1000, 2000)).toEqual({ kind: 'new' });
  });

  it('stays within maxBytes however large the recorded replies', async () => {
    const store = new InMemoryIdempotencyStore({ maxBytes: 64 * 1024 });
    const big = { messageId: 'r', parts: [{ content: { $case: 'text', value: 'x'.repeat(20_000) } }] } as unknown as Message;
    for (let i = 0; i < 20; i++) {
      await store.claim(key(`m-${i}`), 'h', 0, 1e12);
      await store.record(key(`m-${i}`), 'h', { kind: 'message', message: big }, 1e12);
    }
    expect(store.size).toBeLessThanOrEqual(3);
    expect(await store.claim(key('m-19'), 'h', 1, 1e12)).toMatchObject({ kind: 'existing' });
  });
});
