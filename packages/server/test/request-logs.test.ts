import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { interceptOperation, RequestHandler } from '@a2a-polyglot/core';
import { recordingLogger, type LogLine, fixedSpanObserver, captureOutput } from '@a2a-polyglot/testing';
import { SUBPROTOCOL } from '@a2a-polyglot/websocket';
import { WebSocket } from 'ws';
import { rest, rpc, sendParams, startTestServer, testCard, V, waitFor, type TestServer } from './helpers.js';

/**
 * Every line about a request carries the same fields on every binding: `binding`, `reqId`
 * (the caller's X-Request-Id, else a fresh one), `operation`, `traceId` (the active span's)
 * and `taskId`, through child loggers made at the request and operation boundary.
 */
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

/** Runs each operation inside a span of {@link TRACE_ID}, as the tracing observer does. */
const spanObserver = fixedSpanObserver(TRACE_ID, '00f067aa0ba902b7');

const failingAgent = {
  async execute(): Promise<void> {
    throw new Error('the agent broke');
  },
};

describe('request logs', () => {
  const contextManager = new AsyncLocalStorageContextManager();
  const logger = recordingLogger();
  let s: TestServer;
  beforeAll(async () => {
    context.setGlobalContextManager(contextManager.enable());
    const handler = new RequestHandler({ card: testCard(), executor: failingAgent, observer: spanObserver, logger });
    s = await startTestServer({ handler, logger, websocket: {} });
  });
  afterAll(async () => {
    await s.close();
    context.disable();
  });
  beforeEach(() => logger.lines.splice(0));

  const linesOf = (msg: string): LogLine[] => logger.lines.filter((l) => l.msg === msg);

  it("JSON-RPC: a rejected call logs binding, the caller's request id, operation, trace id and task id", async () => {
    await rpc(s.rpcUrl, 'GetTask', { id: 'no-such-task' }, { ...V, 'x-request-id': 'req-42' });
    expect(linesOf('JSON-RPC call rejected')).toEqual([
      expect.objectContaining({
        level: 'debug',
        fields: expect.objectContaining({ binding: 'JSONRPC', reqId: 'req-42', operation: 'GetTask', traceId: TRACE_ID, taskId: 'no-such-task' }),
      }),
    ]);
  });

  it('REST: the same fields; without X-Request-Id the request gets a fresh id', async () => {
    await rest(s.restUrl, 'GET', '/tasks/no-such-task');
    const [line] = linesOf('REST call rejected');
    expect(line?.fields).toEqual(expect.objectContaining({ binding: 'HTTP+JSON', operation: 'GetTask', traceId: TRACE_ID, taskId: 'no-such-task' }));
    expect(line?.fields.reqId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('WebSocket: the same fields', async () => {
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/a2a/ws`, [SUBPROTOCOL], { headers: { 'A2A-Version': '1.0', 'X-Request-Id': 'ws-7' } });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    try {
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'no-such-task' } }));
      await waitFor(() => linesOf('JSON-RPC call rejected').length > 0, { what: 'the rejected call to be logged' });
      expect(linesOf('JSON-RPC call rejected')[0]!.fields).toEqual(
        expect.objectContaining({ binding: 'WEBSOCKET', reqId: 'ws-7', operation: 'GetTask', traceId: TRACE_ID, taskId: 'no-such-task' }),
      );
    } finally {
      ws.close();
    }
  });

  it("a run logs to the call that started it: the agent failure carries the request's fields and the new task id", async () => {
    const sent = await rpc(s.rpcUrl, 'SendMessage', sendParams('hi'), { ...V, 'x-request-id': 'req-run' });
    const taskId: string = sent.body.result.task.id;
    await waitFor(() => linesOf('agent execution failed').length > 0, { what: 'the agent failure to be logged' });
    expect(linesOf('agent execution failed')[0]!.fields).toEqual(
      expect.objectContaining({
        binding: 'JSONRPC',
        reqId: 'req-run',
        operation: 'SendMessage',
        traceId: TRACE_ID,
        taskId,
        err: expect.objectContaining({ message: 'the agent broke' }),
      }),
    );
  });
});

describe('library defaults', () => {
  it('log nothing when given no logger: core, JSON-RPC, REST and the listener stay silent even on errors', async () => {
    const output = captureOutput();
    const broken = interceptOperation('GetTask', () => Promise.reject(new Error('an internal failure')));
    const handler = new RequestHandler({ card: testCard(), executor: failingAgent, interceptors: [broken] });
    const s = await startTestServer({ handler });
    try {
      const sent = await rpc(s.rpcUrl, 'SendMessage', sendParams('hi'));
      await waitFor(
        async () =>
          (await rpc(s.rpcUrl, 'ListTasks', {})).body.result.tasks.some(
            (t: any) => t.id === sent.body.result.task.id && t.status.state === 'TASK_STATE_FAILED',
          ),
        { what: 'the run to fail' },
      );
      expect((await rpc(s.rpcUrl, 'GetTask', { id: 'x' })).body.error.code).toBe(-32603);
      expect((await rest(s.restUrl, 'GET', '/tasks/x')).status).toBe(500);
    } finally {
      await s.close();
      output.restore();
    }
    expect(output.written).toEqual([]);
  });

  it('a handler given a logger behind a listener given none still logs its runs', async () => {
    const logger = recordingLogger();
    const handler = new RequestHandler({ card: testCard(), executor: failingAgent, logger });
    const s = await startTestServer({ handler });
    try {
      await rpc(s.rpcUrl, 'SendMessage', sendParams('hi'));
      await waitFor(() => logger.messages('error').includes('agent execution failed'), { what: 'the agent failure to be logged' });
      expect(logger.lines.find((l) => l.msg === 'agent execution failed')!.fields).toEqual(expect.objectContaining({ taskId: expect.any(String) }));
    } finally {
      await s.close();
    }
  });
});
