import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { callContext, interceptOperation, RequestHandler } from '@a2a-polyglot/core';
import { GetTaskRequest, SendMessageRequest, TaskState } from '@a2a-polyglot/model';
import { recordingLogger, waitFor, fixedSpanObserver, captureOutput } from '@a2a-polyglot/testing';
import { startGrpcServer } from '../src/index.js';
import { rawUnary, startTestServer, testCard, userMessage, type TestServer } from './helpers.js';

/**
 * gRPC lines about a call carry the same fields as the HTTP bindings': `binding: GRPC`,
 * `reqId` (metadata `x-request-id`, else a fresh one), `operation`, `traceId`, `taskId`.
 * Without a logger the binding stays silent (see the last test).
 */
const TRACE_ID = '5bf92f3577b34da6a3ce929d0e0e4736';

const spanObserver = fixedSpanObserver(TRACE_ID, '10f067aa0ba902b7');

const failingAgent = {
  async execute(): Promise<void> {
    throw new Error('the agent broke');
  },
};

describe('gRPC request logs', () => {
  const logger = recordingLogger();
  let t: TestServer;
  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    t = await startTestServer({ grpc: { logger }, handler: { logger, executor: failingAgent, observer: spanObserver } });
  });
  afterAll(async () => {
    await t.close();
    context.disable();
  });

  it('an internal failure and the run it started log binding, reqId, operation, traceId and taskId', async () => {
    const sent = await rawUnary(t.url, '/lf.a2a.v1.A2AService/SendMessage', Buffer.from(SendMessageRequest.encode(userMessage('hi')).finish()), {
      'a2a-version': '1.0',
      'x-request-id': 'grpc-1',
    });
    expect(sent.error).toBeUndefined();
    await waitFor(() => logger.messages('error').includes('agent execution failed'), { what: 'the agent failure to be logged' });
    const line = logger.lines.find((l) => l.msg === 'agent execution failed')!;
    expect(line.fields).toEqual(
      expect.objectContaining({ binding: 'GRPC', reqId: 'grpc-1', operation: 'SendMessage', traceId: TRACE_ID, taskId: expect.any(String) }),
    );
  });

  it('a failure the binding logs itself carries them too', async () => {
    const broken = t.handler as unknown as { getTask: () => never };
    const original = broken.getTask;
    broken.getTask = () => {
      throw new Error('an internal failure');
    };
    try {
      const got = await rawUnary(
        t.url,
        '/lf.a2a.v1.A2AService/GetTask',
        Buffer.from(GetTaskRequest.encode({ tenant: '', id: 'task-9' } as GetTaskRequest).finish()),
        { 'a2a-version': '1.0', 'x-request-id': 'grpc-2' },
      );
      expect(got.error).toBeDefined();
    } finally {
      broken.getTask = original;
    }
    const line = logger.lines.find((l) => l.msg === 'GetTask failed')!;
    expect(line.fields).toEqual(expect.objectContaining({ binding: 'GRPC', reqId: 'grpc-2', operation: 'GetTask', traceId: TRACE_ID, taskId: 'task-9' }));
  });
});

describe('the gRPC binding without a logger', () => {
  it('logs nothing, even for an internal failure and a failing agent run', async () => {
    const output = captureOutput();
    const broken = interceptOperation('GetTask', () => Promise.reject(new Error('an internal failure')));
    const handler = new RequestHandler({ card: testCard(), executor: failingAgent, interceptors: [broken] });
    const server = await startGrpcServer({ handler, host: '127.0.0.1', port: 0 });
    try {
      expect(
        (await rawUnary(server.url, '/lf.a2a.v1.A2AService/GetTask', Buffer.from(GetTaskRequest.encode({ tenant: '', id: 'x' } as GetTaskRequest).finish())))
          .error,
      ).toBeDefined();
      expect(
        (await rawUnary(server.url, '/lf.a2a.v1.A2AService/SendMessage', Buffer.from(SendMessageRequest.encode(userMessage('hi')).finish()))).error,
      ).toBeUndefined();
      await waitFor(
        async () =>
          (await handler.listTasks({ tenant: '' } as never, callContext('GRPC', { 'a2a-version': '1.0' }))).tasks.some(
            (task) => task.status?.state === TaskState.TASK_STATE_FAILED,
          ),
        { what: 'the run to fail' },
      );
    } finally {
      await server.close(1000);
      await handler.shutdown(0);
      output.restore();
    }
    expect(output.written).toEqual([]);
  });
});
