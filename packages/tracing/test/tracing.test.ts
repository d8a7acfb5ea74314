import type { SendMessageRequest } from '@a2a-polyglot/model';
import { userSend, testAgentCard } from '@a2a-polyglot/testing';
import { callContext, InMemoryTaskStore, OPERATIONS, RequestHandler, type AgentExecutor, type UnaryOperation } from '@a2a-polyglot/core';
import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { A2A_ATTRIBUTES as A, A2ATracing, requestIds, resultIds } from '../src/index.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(() => {
  context.disable();
  propagation.disable();
});
beforeEach(() => exporter.reset());

const echo: AgentExecutor = {
  async execute(ctx) {
    ctx.complete();
  },
};

function handler(): RequestHandler {
  const tracing = new A2ATracing({ tracerProvider: provider });
  return new RequestHandler({
    card: testAgentCard(),
    executor: echo,
    observer: tracing.observer,
    taskStore: tracing.taskStore(new InMemoryTaskStore()),
  });
}

describe('A2ATracing', () => {
  it('continues the traceparent of the call, names the tenant of the REST path and the task the call created', async () => {
    const ctx = callContext(
      'HTTP+JSON',
      { 'a2a-version': '1.0', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
      { pathTenant: 'acme' },
    );
    await (OPERATIONS.SendMessage as UnaryOperation<SendMessageRequest>).invoke(handler(), userSend('hi'), ctx);
    const span = exporter.getFinishedSpans().find((s) => s.name === 'a2a.SendMessage')!;
    expect(span.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(span.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    expect(span.attributes).toMatchObject({ [A.binding]: 'HTTP+JSON', [A.tenant]: 'acme', [A.outcome]: 'ok', 'rpc.method': 'SendMessage' });
    expect(span.attributes[A.taskId]).toEqual(expect.any(String));
  });

  it('traces no store call made outside a span (background sweeps)', async () => {
    const store = new A2ATracing({ tracerProvider: provider }).taskStore(new InMemoryTaskStore());
    await store.list({ tenant: '', pageSize: 10 } as never);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

describe('task ids of requests and results', () => {
  it('reads `id` as the task only where it names one (a push config request names its config by id)', () => {
    expect(requestIds('GetTask', { tenant: 't', id: 'task-1' })).toEqual({ tenant: 't', taskId: 'task-1', contextId: undefined });
    expect(requestIds('GetTaskPushNotificationConfig', { tenant: '', taskId: 'task-1', id: 'config-1' })).toEqual({
      tenant: undefined,
      taskId: 'task-1',
      contextId: undefined,
    });
    expect(requestIds('SendMessage', { message: { taskId: '', contextId: 'ctx-1' } })).toEqual({ tenant: undefined, taskId: undefined, contextId: 'ctx-1' });
  });

  it('reads a task, a SendMessageResponse (task or message) and a push config', () => {
    const task = { id: 'task-1', contextId: 'ctx-1', status: {} };
    expect(resultIds(task)).toEqual({ taskId: 'task-1', contextId: 'ctx-1' });
    expect(resultIds({ payload: { $case: 'task', value: task } })).toEqual({ taskId: 'task-1', contextId: 'ctx-1' });
    expect(resultIds({ payload: { $case: 'message', value: { messageId: 'm', taskId: '', contextId: 'ctx-2' } } })).toEqual({
      taskId: undefined,
      contextId: 'ctx-2',
    });
    expect(resultIds({ id: 'config-1', taskId: 'task-1', url: 'https://x' })).toEqual({ taskId: 'task-1', contextId: undefined });
    expect(resultIds(undefined)).toEqual({});
  });
});
