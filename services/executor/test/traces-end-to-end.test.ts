/**
 * One trace id end to end: a trace started by our client continues through the executor
 * (operation span, the agent's run) into the openai-chat bridge's upstream request, whose
 * `traceparent` the fake OpenAI-compatible upstream records.
 */
import { context, SpanKind, trace } from '@opentelemetry/api';
import { Client, GRPC_BINDING, textMessage, type ClientOptions } from '@a2a-polyglot/client';
import { grpcTransportFactory } from '@a2a-polyglot/client/grpc';
import { TASK_RUN_SPAN } from '@a2a-polyglot/tracing';
import { startFakeUpstream, type FakeUpstream } from '../../../packages/bridges/test/fake-upstream.js';
import { startExecutor, type RunningExecutor } from '../src/index.js';
import { waitFor } from './helpers.js';
import { registerTestSdk, type TestSdk } from './otel-test-sdk.js';

const transports: ClientOptions['transports'] = { [GRPC_BINDING]: grpcTransportFactory };

let sdk: TestSdk;
let upstream: FakeUpstream;
let executor: RunningExecutor;

beforeAll(async () => {
  sdk = registerTestSdk();
  upstream = await startFakeUpstream({
    'POST /v1/chat/completions': (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          choices: [{ index: 0, message: { role: 'assistant', content: `you said ${req.body.messages.at(-1).content}` }, finish_reason: 'stop' }],
        }),
      );
    },
  });
  executor = await startExecutor(
    {
      host: '127.0.0.1',
      port: 0,
      grpcPort: 0,
      logLevel: 'error',
      handlers: { 'openai-chat': { baseUrl: `${upstream.url}/v1`, apiKey: 'sk-test' } },
      agents: [{ id: 'writer', handler: 'openai-chat', name: 'Writer', settings: { model: 'm' } }],
    } as never,
    { env: {}, tracing: true },
  );
});

afterAll(async () => {
  await executor?.close();
  await upstream?.close();
  await sdk?.shutdown();
});

/** `00-<trace id>-<parent span id>-<flags>` → its parts. */
function parseTraceparent(header: unknown): { traceId: string; parentId: string } {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(String(header));
  if (!match) throw new Error(`not a traceparent: ${String(header)}`);
  return { traceId: match[1]!, parentId: match[2]! };
}

describe.each(['jsonrpc', 'grpc'] as const)('traces: client → executor (%s) → bridge upstream', (binding) => {
  it('is one trace, the upstream request a child of the agent run of the A2A call', async () => {
    const before = upstream.requests.length;
    const root = trace.getTracer('test').startSpan('caller');
    await context.with(trace.setSpan(context.active(), root), async () => {
      const client = await Client.connect(executor.url, { bindings: [binding], transports });
      try {
        await client.sendMessage({ message: textMessage('hello') });
      } finally {
        await client.close();
      }
    });
    root.end();
    const traceId = root.spanContext().traceId;

    const request = upstream.requests[before]!;
    const sent = parseTraceparent(request.headers.traceparent);
    expect(sent.traceId).toBe(traceId);

    await waitFor(
      () =>
        sdk.spansOf(traceId).some((s) => s.name === TASK_RUN_SPAN) &&
        sdk.spansOf(traceId).some((s) => s.kind === SpanKind.CLIENT && s.name === 'a2a.SendMessage'),
    );
    const spans = sdk.spansOf(traceId);
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
    const chain: string[] = [];
    for (let span = byId.get(sent.parentId); span; span = span.parentSpanContext && byId.get(span.parentSpanContext.spanId)) chain.push(span.name);
    expect(chain).toEqual(['POST', TASK_RUN_SPAN, 'a2a.SendMessage', 'a2a.SendMessage', 'caller']);
    // The two a2a.SendMessage spans: the executor's SERVER span under our client's CLIENT span.
    const operations = spans.filter((s) => s.name === 'a2a.SendMessage');
    expect(operations.map((s) => s.kind).sort()).toEqual([SpanKind.CLIENT, SpanKind.SERVER].sort());
    const client = operations.find((s) => s.kind === SpanKind.CLIENT)!;
    expect(client.attributes).toMatchObject({ 'a2a.operation': 'SendMessage', 'a2a.outcome': 'ok', 'rpc.system': 'a2a' });
    const upstreamSpan = byId.get(sent.parentId)!;
    expect(upstreamSpan.attributes).toMatchObject({
      'a2a.bridge': 'openai-chat',
      'http.request.method': 'POST',
      'http.response.status_code': 200,
      'url.full': `${upstream.url}/v1/chat/completions`,
    });
  });
});
