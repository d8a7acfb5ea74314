/** `a2a --binding websocket` as a user runs it, against the executor's agent served with the WebSocket binding on. */
import { silentLogger } from '@a2a-polyglot/core';
import { startExecutor, type RunningExecutor } from '@a2a-polyglot/executor';
import { startA2AServer, type RunningA2AServer } from '@a2a-polyglot/server';
import { a2a } from './helpers.js';

jest.setTimeout(60_000);

let executor: RunningExecutor;
let front: RunningA2AServer;

beforeAll(async () => {
  executor = await startExecutor({ port: 0, logLevel: 'error', demo: { chunkDelayMs: 1 } }, { logger: silentLogger });
  front = await startA2AServer({ handler: executor.handler, port: 0, logger: silentLogger, websocket: true });
});

afterAll(async () => {
  await front?.close();
  await executor?.close();
});

it('the card lists the WebSocket interface; send streams over it, input-required included', async () => {
  const card = await a2a(['card', front.url]);
  expect(card.stdout).toMatch(/urn:a2a-polyglot:binding:websocket:v1\s+1\.0\s+ws:\/\/127\.0\.0\.1:\d+\/a2a\/ws/);
  const sent = await a2a(['send', front.url, 'hello over a socket', '--binding', 'websocket']);
  expect(sent.code).toBe(0);
  expect(sent.stdout).toBe('Echo: hello over a socket\n');
  const asked = await a2a(['send', front.url, 'ask', '--binding', 'ws', '--input', 'green']);
  expect(asked.code).toBe(0);
  expect(asked.stdout).toMatch(/What should I echo back\?.*\nEcho: green\n$/);
  const missing = await a2a(['get', front.url, 'no-such-task', '--binding', 'websocket']);
  expect(missing.code).toBe(5);
  expect(missing.stderr).toBe('a2a: the agent answered TASK_NOT_FOUND (JSON-RPC -32001): Task no-such-task not found\n');
});
