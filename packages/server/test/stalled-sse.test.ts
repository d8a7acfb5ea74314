import { connect, type Socket } from 'node:net';
import { callContext, RequestHandler, type AgentExecutor } from '@a2a-polyglot/core';
import { TaskState } from '@a2a-polyglot/model';
import { recordingLogger, waitFor } from '@a2a-polyglot/testing';
import { sendParams, startTestServer, testCard, V, type TestServer } from './helpers.js';

/** An agent that reports 64 KiB artifacts until released, then completes: far more than socket buffers hold. */
function floodingAgent(state: { released: boolean; taskIds: string[] }): AgentExecutor {
  return {
    async execute(ctx) {
      state.taskIds.push(ctx.taskId);
      ctx.working();
      const chunk = 'x'.repeat(64 * 1024);
      for (let i = 0; !state.released && !ctx.signal.aborted; i++) {
        ctx.artifact({ artifactId: 'flood', text: chunk, append: i > 0 });
        // The agent's simulated work between two floods (no test waits on it).
        await new Promise((r) => setTimeout(r, 1));
      }
      ctx.complete('done');
    },
  };
}

/** Sends one streaming request over a raw socket and then never reads from it. */
function nonReadingClient(port: number, path: string, body: string): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\n` +
      `A2A-Version: ${V['a2a-version']}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.pause();
  return socket;
}

describe('SSE stream whose client stops reading', () => {
  let s: TestServer;
  const state = { released: false, taskIds: [] as string[] };
  const logger = recordingLogger();
  beforeAll(async () => {
    const handler = new RequestHandler({ card: testCard(), executor: floodingAgent(state), logger });
    s = await startTestServer({ handler, logger, sseStallTimeoutMs: 200 });
  });
  afterAll(() => s.close());

  it.each([
    ['HTTP+JSON', '/a2a/message:stream', (p: Record<string, unknown>) => JSON.stringify(p)],
    ['JSONRPC', '/a2a/rpc', (p: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendStreamingMessage', params: p })],
  ])(
    '%s: the server ends the stalled stream, and the task still completes',
    async (binding, path, body) => {
      state.released = false;
      const before = logger.messages('warn').length;
      const tasksBefore = state.taskIds.length;
      const port = new URL(s.url).port;
      const client = nonReadingClient(Number(port), path, body(sendParams('flood')));
      const closed = new Promise<void>((resolve) => client.on('close', () => resolve()));
      await waitFor(
        () =>
          logger
            .messages('warn')
            .slice(before)
            .some((w) => w.includes('client stopped reading')),
        { timeoutMs: 10_000, what: 'the stall to end the stream' },
      );
      // The stall is logged as a line about that request.
      const stall = logger.lines.filter((l) => l.level === 'warn' && l.msg.includes('client stopped reading')).at(-1)!;
      expect(stall.fields).toEqual(expect.objectContaining({ binding, operation: 'SendStreamingMessage', reqId: expect.any(String) }));
      state.released = true;
      // The stream is over: once the client reads again, it gets what was sent, then the end.
      client.resume();
      await closed;
      const taskId = state.taskIds[tasksBefore]!;
      await waitFor(
        async () =>
          (await s.handler.getTask({ tenant: '', id: taskId, historyLength: 0 }, callContext('IN-PROCESS', V))).status?.state ===
          TaskState.TASK_STATE_COMPLETED,
        {
          what: 'the task to complete',
        },
      );
    },
    20_000,
  );
});
