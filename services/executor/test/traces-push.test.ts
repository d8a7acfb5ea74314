/**
 * Push deliveries continue the task's trace: each webhook POST is an `a2a.push.deliver`
 * CLIENT span under the call that caused it, and carries its `traceparent`.
 */
import { silentLogger } from '@a2a-polyglot/core';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { postJson, userMessage, waitFor } from './helpers.js';
import { registerTestSdk, type TestSdk } from './otel-test-sdk.js';

let sdk: TestSdk;
let executor: RunningExecutor;
let receiver: Server;
let hookUrl: string;
const received: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  sdk = registerTestSdk();
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(req.headers);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook?token=secret`;
  executor = await startExecutor({ host: '127.0.0.1', port: 0, grpcPort: false, demo: { chunkDelayMs: 0 }, push: { allowPrivateNetworks: true } } as never, {
    logger: silentLogger,
    tracing: true,
  });
});

afterAll(async () => {
  await executor?.close();
  await new Promise((resolve) => receiver.close(resolve));
  await sdk?.shutdown();
});

describe('traces: push deliveries', () => {
  it('send the trace context of the task to the webhook, each delivery a span of that trace', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await postJson(
      `${executor.url}/a2a/message:send`,
      { message: userMessage('pushed'), configuration: { taskPushNotificationConfig: { url: hookUrl } } },
      { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    );
    expect(res.status).toBe(200);
    await waitFor(() => received.length > 0 && sdk.spansOf(traceId).filter((s) => s.name === 'a2a.push.deliver').length === received.length);

    const spans = sdk.spansOf(traceId);
    for (const headers of received) {
      const [, sentTrace, parentId] = String(headers.traceparent).split('-');
      expect(sentTrace).toBe(traceId);
      const delivery = spans.find((s) => s.spanContext().spanId === parentId)!;
      expect(delivery.name).toBe('a2a.push.deliver');
      expect(delivery.attributes).toMatchObject({
        'http.request.method': 'POST',
        'http.response.status_code': 204,
        'url.full': hookUrl.replace('?token=secret', ''),
      });
      expect(delivery.attributes['a2a.task.id']).toEqual(expect.any(String));
    }
  });
});
