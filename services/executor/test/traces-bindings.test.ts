/**
 * The same scenario over JSON-RPC, REST, gRPC and WebSocket against one executor yields the
 * same span tree and the same attributes: a SendMessage that completes, a failing GetTask and
 * a SendStreamingMessage, each run inside a test span whose trace context our client sends,
 * so each binding's spans form one trace of their own.
 */
import { context, SpanKind, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { WebSocket } from 'ws';
import { A2AErrorCode } from '@a2a-polyglot/core';
import {
  Client,
  GRPC_BINDING,
  textMessage,
  WEBSOCKET_BINDING,
  WEBSOCKET_SUBPROTOCOL,
  webSocketTransportFactory,
  type ClientOptions,
  type WebSocketConstructor,
} from '@a2a-polyglot/client';
import { grpcTransportFactory } from '@a2a-polyglot/client/grpc';
import { A2A_ATTRIBUTES as A, TASK_RUN_SPAN, TASK_STATE_EVENT } from '@a2a-polyglot/tracing';
import { startExecutor, type RunningExecutor } from '../src/index.js';
import { waitFor } from './helpers.js';
import { registerTestSdk, shapeOf, type SpanShape, type TestSdk } from './otel-test-sdk.js';

const BINDINGS = { jsonrpc: 'JSONRPC', rest: 'HTTP+JSON', grpc: 'GRPC', websocket: 'WEBSOCKET' } as const;
type BindingKey = keyof typeof BINDINGS;
const transports: ClientOptions['transports'] = {
  [GRPC_BINDING]: grpcTransportFactory,
  [WEBSOCKET_BINDING]: webSocketTransportFactory({ WebSocket: WebSocket as unknown as WebSocketConstructor }),
};

let sdk: TestSdk;
let executor: RunningExecutor;

beforeAll(async () => {
  sdk = registerTestSdk();
  executor = await startExecutor({ host: '127.0.0.1', port: 0, grpcPort: 0, logLevel: 'error', demo: { chunkDelayMs: 0 } }, { tracing: true });
});

afterAll(async () => {
  await executor?.close();
  await sdk?.shutdown();
});

/** The scenario over one binding, inside a test span; resolves with that span's trace id. */
async function scenario(binding: BindingKey): Promise<string> {
  const tracer = trace.getTracer('test');
  const root = tracer.startSpan(`scenario ${binding}`);
  await context.with(trace.setSpan(context.active(), root), async () => {
    const client = await Client.connect(executor.url, { bindings: [binding], transports });
    try {
      const sent = await client.sendMessage({ message: textMessage(`hello over ${binding}`) });
      expect(sent.payload?.$case).toBe('task');
      await expect(client.getTask({ id: 'no-such-task' })).rejects.toMatchObject({ code: A2AErrorCode.TaskNotFound });
      for await (const _ of client.sendStreamingMessage({ message: textMessage(`streaming over ${binding}`) })) {
        // read to the end
      }
    } finally {
      await client.close();
    }
  });
  root.end();
  return root.spanContext().traceId;
}

/** One trace, once every client, operation and run span has ended. */
async function traceSpans(traceId: string): Promise<ReadableSpan[]> {
  const done = () => {
    const spans = sdk.spansOf(traceId);
    return (
      spans.filter((s) => s.kind === SpanKind.SERVER).length === 3 &&
      spans.filter((s) => s.kind === SpanKind.CLIENT).length === 3 &&
      spans.filter((s) => s.name === TASK_RUN_SPAN).length === 2
    );
  };
  await waitFor(done, { timeoutMs: 10_000 });
  return sdk.spansOf(traceId);
}

/** The SERVER span (the executor's) of `name` in `spans`. */
const serverSpan = (spans: readonly ReadableSpan[], name: string) => spans.find((s) => s.name === name && s.kind === SpanKind.SERVER)!;

const notStore = (s: ReadableSpan) => !s.name.startsWith('a2a.store.');

describe('traces: one span tree, whatever the binding', () => {
  const traces = new Map<BindingKey, ReadableSpan[]>();
  const roots = new Map<BindingKey, ReadableSpan>();

  beforeAll(async () => {
    for (const binding of Object.keys(BINDINGS) as BindingKey[]) {
      const traceId = await scenario(binding);
      const spans = await traceSpans(traceId);
      traces.set(binding, spans);
      roots.set(binding, spans.find((s) => s.name === `scenario ${binding}`)!);
    }
  });

  it('has the same shape on every binding: client span → operation span under the caller, a run under each send', () => {
    const shapes = new Map<BindingKey, SpanShape>();
    for (const [binding, spans] of traces) shapes.set(binding, shapeOf(roots.get(binding)!, spans, notStore));
    const jsonrpc = shapes.get('jsonrpc')!;
    expect(jsonrpc.children.map((c) => c.name).sort()).toEqual(['a2a.GetTask', 'a2a.SendMessage', 'a2a.SendStreamingMessage']);
    for (const client of jsonrpc.children) expect(client.children.map((c) => c.name)).toEqual([client.name]);
    for (const name of ['a2a.SendMessage', 'a2a.SendStreamingMessage']) {
      expect(jsonrpc.children.find((c) => c.name === name)!.children[0]!.children.map((c) => c.name)).toContain(TASK_RUN_SPAN);
    }
    for (const binding of ['rest', 'grpc', 'websocket'] as const)
      expect({ binding, shape: shapes.get(binding)!.children }).toEqual({ binding, shape: jsonrpc.children });
  });

  it('attributes operation spans the same way on every binding', () => {
    for (const [binding, spans] of traces) {
      const byName = (name: string) => serverSpan(spans, name);
      const common = { 'rpc.system': 'a2a', [A.binding]: BINDINGS[binding], [A.protocolVersion]: '1.0' };

      const send = byName('a2a.SendMessage');
      expect(send.attributes).toMatchObject({ ...common, [A.operation]: 'SendMessage', [A.outcome]: 'ok' });
      expect(send.attributes[A.taskId]).toEqual(expect.any(String));
      expect(send.attributes[A.contextId]).toEqual(expect.any(String));
      expect(send.status.code).not.toBe(2);

      const get = byName('a2a.GetTask');
      expect(get.attributes).toMatchObject({
        ...common,
        [A.operation]: 'GetTask',
        [A.outcome]: 'TASK_NOT_FOUND',
        [A.errorReason]: 'TASK_NOT_FOUND',
        [A.taskId]: 'no-such-task',
      });
      expect(get.status).toMatchObject({ code: 2, message: 'TASK_NOT_FOUND' });

      const stream = byName('a2a.SendStreamingMessage');
      expect(stream.attributes).toMatchObject({ ...common, [A.operation]: 'SendStreamingMessage', [A.outcome]: 'ok' });
      expect(stream.attributes[A.taskId]).toEqual(expect.any(String));
    }
  });

  it('records task states as events on the run spans, and store calls as child spans', () => {
    for (const [binding, spans] of traces) {
      for (const name of ['a2a.SendMessage', 'a2a.SendStreamingMessage']) {
        const operation = serverSpan(spans, name);
        const run = spans.find((s) => s.name === TASK_RUN_SPAN && s.parentSpanContext?.spanId === operation.spanContext().spanId)!;
        // The demo agent's first report creates the task: every state is entered during its run.
        const states = run.events.filter((e) => e.name === TASK_STATE_EVENT).map((e) => e.attributes?.[A.taskState]);
        expect({ binding, name, states }).toEqual({ binding, name, states: ['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED'] });
        expect(run.attributes).toMatchObject({ [A.taskId]: operation.attributes[A.taskId], [A.contextId]: operation.attributes[A.contextId] });
        const runChildren = spans.filter((s) => s.parentSpanContext?.spanId === run.spanContext().spanId).map((s) => s.name);
        expect(runChildren).toContain('a2a.store.save');
      }
      const get = serverSpan(spans, 'a2a.GetTask');
      const storeCalls = spans.filter((s) => s.parentSpanContext?.spanId === get.spanContext().spanId);
      expect(storeCalls.map((s) => s.name)).toContain('a2a.store.get');
    }
  });
});

describe('traces: the WebSocket handshake', () => {
  it('continues a traceparent given once at the upgrade for every call of the connection', async () => {
    const traceId = 'aaaabbbbccccddddeeeeffff00001111';
    const ws = new WebSocket(`${executor.url.replace('http:', 'ws:')}/a2a/ws`, [WEBSOCKET_SUBPROTOCOL], {
      headers: { 'A2A-Version': '1.0', traceparent: `00-${traceId}-1111222233334444-01` },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      const answer = new Promise<any>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'missing' } }));
      expect((await answer).error).toBeDefined();
    } finally {
      ws.terminate();
    }
    await waitFor(() => sdk.spansOf(traceId).length > 0);
    const span = serverSpan(sdk.spansOf(traceId), 'a2a.GetTask');
    expect(span.parentSpanContext?.spanId).toBe('1111222233334444');
    expect(span.attributes).toMatchObject({ [A.binding]: 'WEBSOCKET', [A.outcome]: 'TASK_NOT_FOUND' });
  });
});
