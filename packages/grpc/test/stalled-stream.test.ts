import { callContext, type AgentExecutor } from '@a2a-polyglot/core';
import { SendMessageRequest, TaskState } from '@a2a-polyglot/model';
import { recordingLogger, waitFor } from '@a2a-polyglot/testing';
import { Client, credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { DEFAULT_GRPC_STALL_TIMEOUT_MS } from '../src/index.js';
import { startTestServer, userMessage, type TestServer } from './helpers.js';

/** Reports 64 KiB artifacts until released, then completes: more than HTTP/2 windows and buffers hold. */
function floodingAgent(state: { released: boolean; taskIds: string[] }): AgentExecutor {
  return {
    async execute(ctx) {
      state.taskIds.push(ctx.taskId);
      ctx.working();
      const text = 'x'.repeat(64 * 1024);
      for (let i = 0; !state.released && !ctx.signal.aborted; i++) {
        ctx.artifact({ artifactId: 'flood', text, append: i > 0 });
        // The agent's simulated work between two floods (no test waits on it).
        await new Promise((r) => setTimeout(r, 1));
      }
      ctx.complete('done');
    },
  };
}

describe('gRPC server stream whose client stops reading', () => {
  const state = { released: false, taskIds: [] as string[] };
  const logger = recordingLogger();
  let t: TestServer;
  let client: Client;
  beforeAll(async () => {
    t = await startTestServer({ grpc: { streamStallTimeoutMs: 200, logger }, handler: { executor: floodingAgent(state) } });
    client = new Client(t.url.replace(/^grpc:\/\//, ''), credentials.createInsecure());
  });
  afterAll(async () => {
    client.close();
    await t.close();
  });

  it('defaults to 30 s, as the WebSocket binding', () => {
    expect(DEFAULT_GRPC_STALL_TIMEOUT_MS).toBe(30_000);
  });

  it('ends the call after the stall timeout and releases the stream; the task still completes', async () => {
    const call = client.makeServerStreamRequest(
      '/lf.a2a.v1.A2AService/SendStreamingMessage',
      (request: SendMessageRequest) => Buffer.from(SendMessageRequest.encode(request).finish()),
      (bytes: Buffer) => bytes,
      userMessage('flood'),
      v1Metadata(),
    );
    const ended = new Promise<ServiceError | undefined>((resolve) => {
      call.on('error', (error: ServiceError) => resolve(error));
      call.on('end', () => resolve(undefined));
    });
    call.on('data', () => undefined);
    call.pause();
    await waitFor(() => t.server.service.openStreams === 1, { what: 'the stream to open' });
    await waitFor(() => logger.messages('warn').some((w) => w.includes('client stopped reading')), { timeoutMs: 10_000, what: 'the stall to end the stream' });
    await waitFor(() => t.server.service.openStreams === 0, { what: 'the stream to be released' });
    state.released = true;
    call.resume();
    const error = await ended;
    expect(error).toBeDefined();
    expect(error!.code).toBe(status.RESOURCE_EXHAUSTED);
    const taskId = state.taskIds[0]!;
    await waitFor(
      async () =>
        (await t.handler.getTask({ tenant: '', id: taskId, historyLength: 0 }, callContext('IN-PROCESS', { 'a2a-version': '1.0' }))).status?.state ===
        TaskState.TASK_STATE_COMPLETED,
      {
        what: 'the task to complete',
      },
    );
  }, 20_000);
});

function v1Metadata(): Metadata {
  const md = new Metadata();
  md.set('a2a-version', '1.0');
  return md;
}
