import {
  callContext,
  InMemoryEventLog,
  OPERATIONS,
  RequestHandler,
  silentLogger,
  type AgentExecutor,
  type EventLog,
  type StreamOperation,
  type UnaryOperation,
} from '@a2a-polyglot/core';
import { Role, SendMessageRequest, TaskState, type StreamResponse } from '@a2a-polyglot/model';
import { testAgentCard } from '@a2a-polyglot/testing';
import { A2AMetrics, countedEventLog, eventLogCounts } from '../src/index.js';

const card = testAgentCard({ capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: false, extensions: [] } });
const ctx = () => callContext('JSONRPC', { 'a2a-version': '1.0' });
const sendOp = OPERATIONS.SendMessage as UnaryOperation<SendMessageRequest>;
const streamOp = OPERATIONS.SendStreamingMessage as StreamOperation<SendMessageRequest>;

function send(text: string, pushUrl?: string): SendMessageRequest {
  return SendMessageRequest.fromPartial({
    message: { messageId: `m-${text}-${Math.random()}`, role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: text } }] },
    configuration: pushUrl ? { returnImmediately: false, taskPushNotificationConfig: { url: pushUrl } } : undefined,
  });
}

/** The samples of `name` whose labels include `labels`, as numbers. */
function samples(text: string, name: string, labels: Record<string, string> = {}): number[] {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const found: number[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const inside = line.includes('{') ? line.slice(line.indexOf('{') + 1, line.indexOf('}')).split(',') : [];
    if (want.every((w) => inside.includes(w))) found.push(Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return found;
}
const one = (text: string, name: string, labels: Record<string, string>) => samples(text, name, labels)[0];

/** Ends by what the message says: "fail" throws, "slow" waits 30 ms, "ask" asks for input, anything else completes. */
const agent: AgentExecutor = {
  async execute(c) {
    if (c.text === 'reply') return void c.reply('hi');
    if (c.text === 'slow') await new Promise((resolve) => setTimeout(resolve, 30));
    c.working();
    if (c.text === 'fail') throw new Error('boom');
    if (c.text === 'ask') return void c.requireInput('which one?');
    c.artifact({ text: c.text, lastChunk: true });
  },
};

describe('task metrics', () => {
  let metrics: A2AMetrics;
  let handler: RequestHandler;
  const delivered: string[] = [];

  beforeEach(() => {
    metrics = new A2AMetrics({ processMetrics: false });
    handler = new RequestHandler({
      card,
      executor: agent,
      logger: silentLogger,
      observer: metrics.observerFor('echo'),
      eventLog: metrics.eventLog(new InMemoryEventLog(), 'echo'),
      allowPrivateWebhooks: true,
      pushSender: {
        send: async (config) => {
          delivered.push(config.url);
          return config.url.endsWith('/down') ? 'failed' : 'delivered';
        },
      },
    });
  });
  afterEach(() => handler.shutdown(0));

  it('times task runs by agent and the state they ended in, and the time to their first event', async () => {
    for (const text of ['a', 'slow', 'fail', 'ask', 'reply']) await sendOp.invoke(handler, send(text), ctx());
    await handler.shutdown(1000);
    const body = (await metrics.scrape()).body;
    const count = (state: string) => one(body, 'a2a_task_duration_seconds_count', { agent: 'echo', state });
    expect(count('TASK_STATE_COMPLETED')).toBe(2);
    expect(count('TASK_STATE_FAILED')).toBe(1);
    expect(count('TASK_STATE_INPUT_REQUIRED')).toBe(1);
    expect(count('none')).toBe(1); // the reply
    // The slow run waited 30 ms before anything: its run time and first event are never below
    // 25 ms (the other runs usually are, but a loaded machine may slow them past it: only the
    // lower bound is the code's, so only it is asserted).
    expect(one(body, 'a2a_task_duration_seconds_bucket', { agent: 'echo', state: 'TASK_STATE_COMPLETED', le: '0.025' })).toBeLessThanOrEqual(1);
    expect(one(body, 'a2a_task_duration_seconds_bucket', { agent: 'echo', state: 'TASK_STATE_COMPLETED', le: '600' })).toBe(2);
    expect(one(body, 'a2a_task_time_to_first_event_seconds_count', { agent: 'echo' })).toBe(5);
    expect(one(body, 'a2a_task_time_to_first_event_seconds_bucket', { agent: 'echo', le: '0.025' })).toBeLessThanOrEqual(4);
    expect(one(body, 'a2a_task_time_to_first_event_seconds_sum', { agent: 'echo' })).toBeGreaterThanOrEqual(0.025);
  });

  it('labels each agent apart, and the default observer with an empty agent', async () => {
    const other = new RequestHandler({ card, executor: agent, logger: silentLogger, observer: metrics.observer });
    await sendOp.invoke(other, send('a'), ctx());
    await sendOp.invoke(handler, send('a'), ctx());
    await other.shutdown(1000);
    await handler.shutdown(1000);
    const body = (await metrics.scrape()).body;
    expect(one(body, 'a2a_task_duration_seconds_count', { agent: '', state: 'TASK_STATE_COMPLETED' })).toBe(1);
    expect(one(body, 'a2a_task_duration_seconds_count', { agent: 'echo', state: 'TASK_STATE_COMPLETED' })).toBe(1);
    expect(metrics.observerFor('echo')).toBe(metrics.observerFor('echo'));
  });

  it('counts push deliveries by agent and outcome', async () => {
    await sendOp.invoke(handler, send('a', 'http://127.0.0.1:1/hook'), ctx());
    await sendOp.invoke(handler, send('b', 'http://127.0.0.1:1/down'), ctx());
    await handler.shutdown(1000);
    await (handler as unknown as { push: { idle(): Promise<void> } }).push.idle();
    const body = (await metrics.scrape()).body;
    // Each task: created, working, artifact, completed: four events to its webhook.
    expect(one(body, 'a2a_push_deliveries_total', { agent: 'echo', outcome: 'delivered' })).toBe(4);
    expect(one(body, 'a2a_push_deliveries_total', { agent: 'echo', outcome: 'failed' })).toBe(4);
  });

  it('counts events published to and replayed from the event log', async () => {
    // Unstreamed and unfollowed: counted as a seq, never logged.
    await sendOp.invoke(handler, send('a'), ctx());
    let body = (await metrics.scrape()).body;
    expect(one(body, 'a2a_event_log_published_total', { agent: 'echo' })).toBe(0);
    const stream = await streamOp.open(handler, send('b'), ctx());
    let read = 0;
    for await (const _ of stream) read++;
    body = (await metrics.scrape()).body;
    expect(read).toBe(4);
    expect(one(body, 'a2a_event_log_published_total', { agent: 'echo' })).toBe(4);
    expect(one(body, 'a2a_event_log_replayed_total', { agent: 'echo' })).toBe(4);
    expect(one(body, 'a2a_event_log_gaps_total', { agent: 'echo' })).toBe(0);
  });
});

describe('countedEventLog', () => {
  const event: StreamResponse = {
    payload: {
      $case: 'statusUpdate',
      value: { taskId: 't', contextId: 'c', status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined }, metadata: undefined },
    },
  };

  it('keeps synchronous answers synchronous and the optional methods exactly as the log has them', () => {
    const counts = eventLogCounts();
    const log = countedEventLog(new InMemoryEventLog(), counts);
    expect(log.append('k', event)).toBe(1);
    expect(log.append('k', event, 1)).toBe(0); // dropped: not counted
    const read = log.readAfter('k', 0);
    expect('events' in read && read.events).toHaveLength(1);
    expect(counts).toEqual({ published: 1, replayed: 1, gaps: 0 });
    expect(typeof log.isFollowed).toBe('function');
    expect(typeof log.addWaiter).toBe('function');
    const bare: EventLog = {
      append: async () => 7,
      readAfter: async () => ({ events: [], gap: true }),
      lastSeq: async () => 0,
      waitFor: async () => undefined,
      seal: () => undefined,
    };
    const wrapped = countedEventLog(bare, counts);
    expect(wrapped.isFollowed).toBeUndefined();
    expect(wrapped.appendMany).toBeUndefined();
    expect(wrapped.addWaiter).toBeUndefined();
  });

  it('counts asynchronous appends, batch appends and gaps', async () => {
    const counts = eventLogCounts();
    const log = countedEventLog(
      {
        append: async () => 3,
        appendMany: async () => undefined,
        readAfter: async () => ({ events: [], gap: true }),
        lastSeq: async () => 0,
        waitFor: async () => undefined,
        seal: () => undefined,
      },
      counts,
    );
    expect(await log.append('k', event)).toBe(3);
    await log.appendMany?.('k', [
      { seq: 4, event },
      { seq: 5, event },
    ]);
    await log.readAfter('k', 0);
    expect(counts).toEqual({ published: 3, replayed: 0, gaps: 1 });
  });
});
