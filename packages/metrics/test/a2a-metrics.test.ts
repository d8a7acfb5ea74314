import {
  callContext,
  InMemoryTaskStore,
  OPERATIONS,
  rateLimited,
  RequestHandler,
  silentLogger,
  type AgentExecutor,
  type UnaryOperation,
} from '@a2a-polyglot/core';
import { Role, SendMessageRequest } from '@a2a-polyglot/model';
import { testAgentCard } from '@a2a-polyglot/testing';
import { A2AMetrics } from '../src/index.js';

const card = testAgentCard({ capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false, extensions: [] } });

const echo: AgentExecutor = {
  async execute(ctx) {
    ctx.working();
    ctx.artifact({ name: 'answer', text: ctx.text });
    ctx.complete();
  },
};

function send(text: string): SendMessageRequest {
  return SendMessageRequest.fromPartial({ message: { messageId: `m-${text}`, role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: text } }] } });
}

/** The value of the first sample of `name` whose labels include `labels`, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const inside = line.includes('{') ? line.slice(line.indexOf('{') + 1, line.indexOf('}')).split(',') : [];
    if (want.every((w) => inside.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

/** A handler under `metrics` whose rate limiter refuses every request. */
function refusingHandler(metrics: A2AMetrics): RequestHandler {
  return new RequestHandler({
    card,
    executor: echo,
    observer: metrics.observer,
    rateLimiter: {
      consume: async (scope) => {
        throw rateLimited(scope, 1000);
      },
    },
    logger: silentLogger,
  });
}

describe('A2AMetrics', () => {
  let metrics: A2AMetrics;
  let handler: RequestHandler;
  beforeEach(() => {
    metrics = new A2AMetrics();
    handler = new RequestHandler({ card, executor: echo, observer: metrics.observer, taskStore: metrics.taskStore(new InMemoryTaskStore()) });
    metrics.watch(handler);
  });
  afterEach(() => handler.shutdown(0));

  it('counts operations by operation, binding, version and outcome, with latency, task states and store timings', async () => {
    const ctx = () => callContext('JSONRPC', { 'a2a-version': '1.0' });
    const sendOp = OPERATIONS.SendMessage as UnaryOperation;
    await sendOp.invoke(handler, send('a'), ctx());
    await sendOp.invoke(handler, send('b'), ctx());
    await expect(
      (OPERATIONS.GetTask as UnaryOperation).invoke(handler, { tenant: '', id: 'nope' }, callContext('GRPC', { 'a2a-version': '1.0' })),
    ).rejects.toThrow();
    const { contentType, body } = await metrics.scrape();
    expect(contentType).toMatch(/^text\/plain/);
    expect(sample(body, 'a2a_requests_total', { operation: 'SendMessage', binding: 'JSONRPC', version: '1.0', outcome: 'ok' })).toBe(2);
    expect(sample(body, 'a2a_requests_total', { operation: 'GetTask', binding: 'GRPC', version: '1.0', outcome: 'TASK_NOT_FOUND' })).toBe(1);
    expect(sample(body, 'a2a_request_duration_seconds_count', { operation: 'SendMessage', binding: 'JSONRPC', version: '1.0' })).toBe(2);
    expect(sample(body, 'a2a_task_state_transitions_total', { state: 'TASK_STATE_COMPLETED' })).toBe(2);
    expect(sample(body, 'a2a_task_state_transitions_total', { state: 'TASK_STATE_WORKING' })).toBe(2);
    expect(sample(body, 'a2a_store_operation_duration_seconds_count', { operation: 'get', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(sample(body, 'a2a_store_operation_duration_seconds_count', { operation: 'save', outcome: 'ok' })).toBeGreaterThanOrEqual(2);
    expect(sample(body, 'process_cpu_user_seconds_total', {})).toBeGreaterThan(0);
    expect(sample(body, 'a2a_task_runs_active', {})).toBeDefined();
  });

  it('reports executing tasks of every watched handler', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const waiting = new RequestHandler({
      card,
      executor: {
        execute: async (ctx) => {
          ctx.working();
          await released;
          ctx.complete();
        },
      },
      observer: metrics.observer,
    });
    metrics.watch(waiting);
    const request = SendMessageRequest.fromPartial({ ...send('w'), configuration: { returnImmediately: true } });
    await (OPERATIONS.SendMessage as UnaryOperation).invoke(waiting, request, callContext('JSONRPC', { 'a2a-version': '1.0' }));
    expect(sample((await metrics.scrape()).body, 'a2a_task_runs_active', {})).toBe(1);
    release();
    while (waiting.activeRuns > 0) await new Promise((resolve) => setImmediate(resolve));
    expect(sample((await metrics.scrape()).body, 'a2a_task_runs_active', {})).toBe(0);
    await waiting.shutdown(0);
  });

  it('keeps the open-stream gauge while a stream is read and lowers it once when the stream ends or is closed', async () => {
    const ctx = callContext('WEBSOCKET', { 'a2a-version': '1.0' });
    const op = OPERATIONS.SendStreamingMessage;
    if (op.kind !== 'stream') throw new Error('not a stream');
    const stream = await op.open(handler, send('s'), ctx);
    const labels = { operation: 'SendStreamingMessage', binding: 'WEBSOCKET' };
    expect(sample((await metrics.scrape()).body, 'a2a_open_streams', labels)).toBe(1);
    let events = 0;
    for await (const _ of stream) events++;
    expect(events).toBeGreaterThan(0);
    const after = (await metrics.scrape()).body;
    expect(sample(after, 'a2a_open_streams', labels)).toBe(0);
    expect(sample(after, 'a2a_streams_opened_total', labels)).toBe(1);

    const closed = await op.open(handler, send('t'), ctx);
    closed.close();
    closed.close();
    expect(sample((await metrics.scrape()).body, 'a2a_open_streams', labels)).toBe(0);
  });

  it('labels v0.3 calls with their version', async () => {
    await expect(
      (OPERATIONS.GetTask as UnaryOperation).invoke(handler, { tenant: '', id: 'x' }, callContext('JSONRPC', {}, { wireVersion: '0.3' })),
    ).rejects.toThrow();
    expect(sample((await metrics.scrape()).body, 'a2a_requests_total', { operation: 'GetTask', version: '0.3', outcome: 'TASK_NOT_FOUND' })).toBe(1);
  });

  it('times failed store calls as errors', async () => {
    const failing = metrics.taskStore({
      get: async () => Promise.reject(new Error('down')),
      save: async () => undefined,
      list: async () => ({ tasks: [], nextPageToken: '', totalSize: 0 }),
      delete: async () => undefined,
    });
    await expect(failing.get('', 'x')).rejects.toThrow('down');
    expect(sample((await metrics.scrape()).body, 'a2a_store_operation_duration_seconds_count', { operation: 'get', outcome: 'error' })).toBe(1);
  });

  it('counts rate-limit refusals by operation and binding', async () => {
    const limited = refusingHandler(metrics);
    const ctx = callContext('HTTP+JSON', { 'a2a-version': '1.0' }, { remoteAddress: '198.51.100.1' });
    await expect((OPERATIONS.GetTask as UnaryOperation).invoke(limited, { tenant: '', id: 'x' }, ctx)).rejects.toThrow('Rate limit');
    await expect((OPERATIONS.GetTask as UnaryOperation).invoke(limited, { tenant: '', id: 'x' }, ctx)).rejects.toThrow('Rate limit');
    const text = (await metrics.scrape()).body;
    expect(sample(text, 'a2a_rate_limit_refusals_total', { operation: 'GetTask', binding: 'HTTP+JSON' })).toBe(2);
    expect(sample(text, 'a2a_requests_total', { operation: 'GetTask', outcome: 'RATE_LIMITED' })).toBe(2);
  });

  it('counts requests refused on arrival (before they name an operation) with an empty operation', async () => {
    const limited = refusingHandler(metrics);
    await expect(limited.chargeArrival('JSONRPC', '198.51.100.1')).rejects.toThrow('Rate limit');
    await expect(limited.chargeArrival('GRPC', '198.51.100.1')).rejects.toThrow('Rate limit');
    const text = (await metrics.scrape()).body;
    expect(sample(text, 'a2a_rate_limit_refusals_total', { operation: '', binding: 'JSONRPC' })).toBe(1);
    expect(sample(text, 'a2a_rate_limit_refusals_total', { operation: '', binding: 'GRPC' })).toBe(1);
  });
});
