/**
 * The executor's log lines: one pino logger, JSON lines, and every line about a request
 * carries its binding, request id, trace id and task id, with credentials redacted.
 */
import type { AgentExecutor } from '@a2a-polyglot/core';
import { createLogger, startExecutor, type RunningExecutor } from '../src/index.js';
import { waitFor } from './helpers.js';
import { registerTestSdk, type TestSdk } from './otel-test-sdk.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const SECRET = 'sk-upstream-secret-31337';

/** Fails the way an HTTP client's error does: with the request (and its credentials) attached. */
const failingAgent: AgentExecutor = {
  async execute() {
    throw Object.assign(new Error('upstream answered 401'), {
      request: { url: 'https://upstream.example/v1', headers: { authorization: `Bearer ${SECRET}` } },
    });
  },
};

let sdk: TestSdk;
let executor: RunningExecutor;
const lines: string[] = [];

beforeAll(async () => {
  sdk = registerTestSdk();
  // pino's destination: anything with write(); each call is one JSON line.
  const logger = createLogger('debug', { write: (line: string) => void lines.push(line) });
  executor = await startExecutor({ host: '127.0.0.1', port: 0, grpcPort: false }, { executor: failingAgent, logger, tracing: true });
});

afterAll(async () => {
  await executor?.close();
  await sdk?.shutdown();
});

it('logs an agent failure as one JSON line with binding, reqId, traceId and taskId, and the credential redacted', async () => {
  const res = await fetch(`${executor.url}${executor.endpoints.jsonRpc}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', 'x-request-id': 'req-exec-1', traceparent: `00-${TRACE_ID}-b7ad6b7169203331-01` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
    }),
  });
  const taskId: string = ((await res.json()) as any).result.task.id;
  await waitFor(() => lines.some((l) => l.includes('agent execution failed')), { what: 'the failure line' });
  const raw = lines.find((l) => l.includes('agent execution failed'))!;
  expect(raw.endsWith('\n')).toBe(true);
  expect(raw.trim().split('\n')).toHaveLength(1);
  expect(JSON.parse(raw)).toMatchObject({
    level: 'error',
    msg: 'agent execution failed',
    binding: 'JSONRPC',
    reqId: 'req-exec-1',
    operation: 'SendMessage',
    traceId: TRACE_ID,
    taskId,
    err: { message: 'upstream answered 401', request: { headers: { authorization: '[redacted]' } } },
  });
  expect(lines.join('')).not.toContain(SECRET);
});
