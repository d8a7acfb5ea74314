/**
 * `agents[i].backgroundExecution: false` end to end: on every binding, a client that goes away
 * during a blocking (or streaming) send takes its task with it: the task ends CANCELED and the
 * agent's cancel hook runs. The default (background on) keeps such a task running.
 */
import { WebSocket } from 'ws';
import { silentLogger, type AgentExecutor } from '@a2a-polyglot/core';
import { BridgeRegistry, defineBridge } from '@a2a-polyglot/bridges';
import { GrpcSessionClient, GrpcTransport } from '@a2a-polyglot/client/grpc';
import { Role } from '@a2a-polyglot/model';
import { WEBSOCKET_SUBPROTOCOL } from '@a2a-polyglot/client';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { json, postJson, rpc, userMessage, V1, waitFor } from './helpers.js';

/** What the agents did, by the text they were sent (each test sends its own). */
const started = new Map<string, string>();
const hooked: string[] = [];

/** Works until aborted; its cancel hook records the task. */
const worker: AgentExecutor = {
  async execute(ctx) {
    ctx.working('working until canceled');
    started.set(ctx.text, ctx.taskId);
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
  },
  cancel(ctx) {
    hooked.push(ctx.taskId);
  },
};
const registry = new BridgeRegistry([defineBridge({ name: 'worker', description: 'works until canceled', settings: {}, create: () => worker })]);

let running: RunningExecutor;
beforeAll(async () => {
  running = await startExecutor(
    {
      host: '127.0.0.1',
      port: 0,
      grpcPort: 0,
      shutdownGraceMs: 0,
      agents: [
        { id: 'follow', handler: 'worker', backgroundExecution: false },
        { id: 'background', handler: 'worker' },
      ],
    },
    { handlers: registry, logger: silentLogger, env: {} },
  );
});
afterAll(() => running.close());

/** The state of a task, read with GetTask over JSON-RPC. */
async function stateOf(taskId: string, agentPath = ''): Promise<string> {
  const res = await json(await postJson(`${running.url}${agentPath}/a2a/rpc`, rpc('GetTask', { id: taskId })));
  return res.result.status.state;
}

/** Waits for the agent to start on `text`; its task id. */
async function taskStartedBy(text: string): Promise<string> {
  await waitFor(() => started.has(text), { what: `the agent to start on "${text}"` });
  return started.get(text)!;
}

/** Waits until the task of `text` is CANCELED (GetTask) and checks the cancel hook ran for it. */
async function expectCanceled(text: string): Promise<void> {
  const taskId = await taskStartedBy(text);
  await waitFor(async () => (await stateOf(taskId)) === 'TASK_STATE_CANCELED', { what: `task of "${text}" to be CANCELED` });
  expect(hooked).toContain(taskId);
}

/** POSTs and drops the connection once the agent started on `text`. */
async function postThenLeave(url: string, body: unknown, text: string, headers: Record<string, string> = {}): Promise<void> {
  const abort = new AbortController();
  const pending = fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...V1, ...headers },
    body: JSON.stringify(body),
    signal: abort.signal,
  }).then((res) => res.text());
  await taskStartedBy(text);
  abort.abort();
  await expect(pending).rejects.toThrow();
}

describe('backgroundExecution: false, the client leaves during a send', () => {
  it('JSON-RPC: a blocking SendMessage', async () => {
    await postThenLeave(`${running.url}/a2a/rpc`, rpc('SendMessage', { message: userMessage('jsonrpc blocking') }), 'jsonrpc blocking');
    await expectCanceled('jsonrpc blocking');
  });

  it('JSON-RPC: a SendStreamingMessage (SSE) whose stream is dropped', async () => {
    await postThenLeave(`${running.url}/a2a/rpc`, rpc('SendStreamingMessage', { message: userMessage('jsonrpc stream') }), 'jsonrpc stream', {
      Accept: 'text/event-stream',
    });
    await expectCanceled('jsonrpc stream');
  });

  it('HTTP+JSON: a blocking message:send, also for a mounted agent', async () => {
    await postThenLeave(`${running.url}/a2a/message:send`, { message: userMessage('rest blocking') }, 'rest blocking');
    await expectCanceled('rest blocking');
    await postThenLeave(`${running.url}/agents/follow/a2a/message:send`, { message: userMessage('rest mounted') }, 'rest mounted');
    await expectCanceled('rest mounted');
  });

  it('HTTP+JSON: a message:stream (SSE) whose stream is dropped', async () => {
    await postThenLeave(`${running.url}/a2a/message:stream`, { message: userMessage('rest stream') }, 'rest stream', { Accept: 'text/event-stream' });
    await expectCanceled('rest stream');
  });

  it('gRPC: a SendStreamingMessage the client cancels', async () => {
    const client = new GrpcTransport({ url: running.grpc!.url });
    try {
      const abort = new AbortController();
      const text = 'grpc stream';
      const stream = client.sendStreamingMessage({ message: grpcMessage(text) }, { signal: abort.signal });
      const reading = (async () => {
        for await (const _ of stream) void _;
      })();
      await taskStartedBy(text);
      abort.abort();
      await reading.catch(() => undefined);
      await expectCanceled(text);
    } finally {
      client.close();
    }
  });

  it('gRPC session service: the session is dropped during a send, or a streaming send is unsubscribed', async () => {
    const session = new GrpcSessionClient({ url: running.grpc!.url });
    const pending = session.send({ message: grpcMessage('session blocking') });
    await taskStartedBy('session blocking');
    session.destroy();
    await expect(pending).rejects.toThrow();
    await expectCanceled('session blocking');

    const session2 = new GrpcSessionClient({ url: running.grpc!.url });
    try {
      const stream = session2.sendStreaming({ message: grpcMessage('session stream') });
      await taskStartedBy('session stream');
      session2.unsubscribe(stream);
      await expectCanceled('session stream');
    } finally {
      session2.destroy();
    }
  });

  it('gRPC: a SendMessage the client cancels', async () => {
    const client = new GrpcTransport({ url: running.grpc!.url });
    try {
      const abort = new AbortController();
      const text = 'grpc blocking';
      const pending = client.sendMessage({ message: grpcMessage(text) }, { signal: abort.signal, timeoutMs: 10_000 });
      await taskStartedBy(text);
      abort.abort();
      await expect(pending).rejects.toThrow();
      await expectCanceled(text);
    } finally {
      client.close();
    }
  });

  it('WebSocket: the socket closes during a blocking SendMessage; cancelStream stops a streaming send', async () => {
    const ws = await openSocket();
    ws.send(JSON.stringify(rpc('SendMessage', { message: userMessage('ws blocking') }, 1)));
    await taskStartedBy('ws blocking');
    ws.terminate();
    await expectCanceled('ws blocking');

    const ws2 = await openSocket();
    try {
      ws2.send(JSON.stringify(rpc('SendStreamingMessage', { message: userMessage('ws stream') }, 2)));
      await taskStartedBy('ws stream');
      ws2.send(JSON.stringify({ jsonrpc: '2.0', id: 2, cancelStream: true }));
      await expectCanceled('ws stream');
    } finally {
      ws2.terminate();
    }
  });

  it('refuses returnImmediately with UnsupportedOperation (v1.0), and v0.3 blocking:false too', async () => {
    const v1 = await json(
      await postJson(`${running.url}/a2a/rpc`, rpc('SendMessage', { message: userMessage('never'), configuration: { returnImmediately: true } })),
    );
    expect(v1.error.code).toBe(-32004);
    expect(v1.error.message).toMatch(/background execution is off.*configuration\.returnImmediately/);
    const rest = await postJson(`${running.url}/a2a/message:send`, { message: userMessage('never'), configuration: { returnImmediately: true } });
    expect(rest.status).toBe(400);
    expect(JSON.stringify(await json(rest))).toContain('UNSUPPORTED_OPERATION');
    const v03 = await json(
      await fetch(`${running.url}/a2a/rpc`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'A2A-Version': '0.3' },
        body: JSON.stringify(
          rpc('message/send', {
            message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'never' }] },
            configuration: { blocking: false },
          }),
        ),
      }),
    );
    expect(v03.error.code).toBe(-32004);
    expect(v03.error.message).toContain('v0.3 configuration.blocking: false');
    expect(started.has('never')).toBe(false);
  });
});

describe('backgroundExecution: true (the default)', () => {
  it('keeps the task of a departed blocking caller running', async () => {
    const text = 'background blocking';
    await postThenLeave(`${running.url}/agents/background/a2a/rpc`, rpc('SendMessage', { message: userMessage(text) }), text);
    const taskId = started.get(text)!;
    // A later call on the same agent has run after the disconnect was handled; the task still works.
    const later = await json(
      await postJson(
        `${running.url}/agents/background/a2a/rpc`,
        rpc('SendMessage', { message: userMessage('later'), configuration: { returnImmediately: true } }),
      ),
    );
    expect(later.result.task.status.state).toBe('TASK_STATE_WORKING');
    expect(await stateOf(taskId, '/agents/background')).toBe('TASK_STATE_WORKING');
    expect(hooked).not.toContain(taskId);
  });
});

/** A user text message in the gRPC client's (proto) form. */
function grpcMessage(text: string) {
  return { messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: 'text' as const, value: text } }] };
}

function openSocket(): Promise<WebSocket> {
  const ws = new WebSocket(`${running.url.replace('http:', 'ws:')}/a2a/ws`, [WEBSOCKET_SUBPROTOCOL], { headers: { 'A2A-Version': '1.0' } });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}
