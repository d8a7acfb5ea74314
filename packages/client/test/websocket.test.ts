import { WebSocket } from 'ws';
import { A2AError, A2AErrorCode, OPERATIONS, type StreamOperation, type UnaryOperation } from '@a2a-polyglot/core';
import {
  GetTaskRequest,
  ListTasksRequest,
  SendMessageRequest,
  SubscribeToTaskRequest,
  TaskState,
  type SendMessageResponse,
  type Task,
} from '@a2a-polyglot/model';
import { AUTH_SUBPROTOCOL_PREFIX, SUBPROTOCOL, WEBSOCKET_BINDING_URI } from '@a2a-polyglot/websocket';
import { Client, textMessage, WEBSOCKET_BINDING } from '../src/index.js';
import { clientFailureOf } from '../src/failures.js';
import type { ClientEvent } from '../src/transport.js';
import {
  WEBSOCKET_AUTH_PREFIX,
  WEBSOCKET_SUBPROTOCOL,
  WebSocketTransport,
  webSocketTransportFactory,
  type WebSocketConstructor,
} from '../src/transports/websocket.js';
import { waitFor } from './helpers.js';
import { startWsAgent, type WsAgent } from './websocket-helpers.js';

const WS = WebSocket as unknown as WebSocketConstructor;
const sendOp = OPERATIONS.SendMessage as UnaryOperation<SendMessageRequest, SendMessageResponse>;
const getTaskOp = OPERATIONS.GetTask as UnaryOperation<GetTaskRequest, Task>;
const streamOp = OPERATIONS.SendStreamingMessage as StreamOperation<SendMessageRequest>;
const subscribeOp = OPERATIONS.SubscribeToTask as StreamOperation<SubscribeToTaskRequest>;

const send = (text: string, returnImmediately = false): SendMessageRequest =>
  SendMessageRequest.fromPartial({ message: textMessage(text), configuration: returnImmediately ? { returnImmediately: true } : undefined });

/** The task id an event names. */
function taskIdOf({ event }: ClientEvent): string | undefined {
  const p = event.payload;
  if (p?.$case === 'task') return p.value.id;
  if (p?.$case === 'statusUpdate' || p?.$case === 'artifactUpdate') return p.value.taskId;
  return undefined;
}

/** Rejects with what `promise` rejected with, or fails the test if it resolved. */
async function failure(promise: Promise<unknown>): Promise<A2AError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(A2AError);
    return error as A2AError;
  }
  throw new Error('expected a failure');
}

describe('the wire constants match the server package', () => {
  it('subprotocol, auth prefix and binding URI', () => {
    expect(WEBSOCKET_SUBPROTOCOL).toBe(SUBPROTOCOL);
    expect(WEBSOCKET_AUTH_PREFIX).toBe(AUTH_SUBPROTOCOL_PREFIX);
    expect(WEBSOCKET_BINDING).toBe(WEBSOCKET_BINDING_URI);
  });
});

describe('WebSocketTransport (Node, with the ws package)', () => {
  let agent: WsAgent;
  let transport: WebSocketTransport;
  beforeEach(async () => {
    agent = await startWsAgent();
    transport = new WebSocketTransport({ url: agent.wsUrl, WebSocket: WS });
  });
  afterEach(async () => {
    await transport.close();
    await agent.close();
  });

  it('unary calls decode into the model types; server errors come back as A2AError', async () => {
    const sent = await transport.unary(sendOp, send('steps 2'));
    expect(sent.payload?.$case).toBe('task');
    const task = sent.payload!.value as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect((await transport.unary(getTaskOp, GetTaskRequest.fromPartial({ id: task.id }))).id).toBe(task.id);
    const missing = await failure(transport.unary(getTaskOp, GetTaskRequest.fromPartial({ id: 'nope' })));
    expect(missing.code).toBe(A2AErrorCode.TaskNotFound);
  });

  it('streams numbered events and ends at streamEnd', async () => {
    const events: ClientEvent[] = [];
    for await (const e of transport.stream(streamOp, send('steps 2'))) events.push(e);
    expect(events.map((e) => e.event.payload?.$case)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('multiplexes concurrent calls and streams over one socket', async () => {
    const streams = [transport.stream(streamOp, send('steps 3')), transport.stream(streamOp, send('steps 1'))].map(async (s) => {
      let n = 0;
      for await (const _ of s) n++;
      return n;
    });
    const calls = Array.from({ length: 5 }, () =>
      transport.unary(OPERATIONS.ListTasks as UnaryOperation<ListTasksRequest, unknown>, ListTasksRequest.fromPartial({})),
    );
    const [counts] = await Promise.all([Promise.all(streams), Promise.all(calls)]);
    expect(counts).toEqual([6, 4]);
    expect(agent.http.websocket!.stats()).toHaveLength(1);
  });

  it('leaving a stream early sends cancelStream: delivery stops, the task goes on', async () => {
    let taskId: string | undefined;
    for await (const e of transport.stream(streamOp, send('gate g1'))) {
      taskId ??= taskIdOf(e);
      if (e.event.payload?.$case === 'statusUpdate') break;
    }
    await waitFor(() => agent.http.websocket!.stats()[0]!.openStreams === 0);
    expect((await transport.unary(getTaskOp, GetTaskRequest.fromPartial({ id: taskId! }))).status?.state).toBe(TaskState.TASK_STATE_WORKING);
    agent.gates.open('g1');
    await waitFor(async () => (await transport.unary(getTaskOp, GetTaskRequest.fromPartial({ id: taskId! }))).status?.state === TaskState.TASK_STATE_COMPLETED);
  });

  it('a dropped socket fails the stream as a cut; the next call reconnects and resumes after the last seq', async () => {
    const seen: ClientEvent[] = [];
    const cut = await failure(
      (async () => {
        for await (const e of transport.stream(streamOp, send('gate g2 2'))) {
          seen.push(e);
          if (seen.length === 2) expect(agent.dropSockets()).toBe(1);
        }
      })(),
    );
    expect(cut.code).toBe(A2AErrorCode.Unavailable);
    expect(clientFailureOf(cut)).toBe('cut');
    const lastSeq = seen.at(-1)!.seq!;
    agent.gates.open('g2');
    const resumed: ClientEvent[] = [];
    for await (const e of transport.stream(subscribeOp, SubscribeToTaskRequest.fromPartial({ id: taskIdOf(seen[0]!)! }), { resumeAfterSeq: lastSeq }))
      resumed.push(e);
    expect(resumed.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(resumed.at(-1)!.event.payload?.$case).toBe('statusUpdate');
  });

  it('timeoutMs and abort signals end calls with DeadlineExceeded', async () => {
    const timeout = await failure(transport.unary(sendOp, send('hang'), { timeoutMs: 50 }));
    expect(timeout.code).toBe(A2AErrorCode.DeadlineExceeded);
    expect(clientFailureOf(timeout)).toBe('timeout');
    const controller = new AbortController();
    const aborted = failure(
      (async () => {
        for await (const e of transport.stream(streamOp, send('hang'), { signal: controller.signal }))
          if (e.event.payload?.$case === 'statusUpdate') controller.abort();
      })(),
    );
    expect(clientFailureOf(await aborted)).toBe('aborted');
    await waitFor(() => agent.http.websocket!.stats()[0]!.openStreams === 0);
  });

  it('an unreachable endpoint is Unavailable / unreachable', async () => {
    const port = Number(new URL(agent.url).port);
    await agent.close();
    const dead = new WebSocketTransport({ url: `ws://127.0.0.1:${port}/a2a/ws`, WebSocket: WS, connectTimeoutMs: 2000 });
    const error = await failure(dead.unary(getTaskOp, GetTaskRequest.fromPartial({ id: 'x' })));
    expect(error.code).toBe(A2AErrorCode.Unavailable);
    expect(clientFailureOf(error)).toBe('unreachable');
    agent = await startWsAgent(); // for afterEach
  });
});

describe('WebSocketTransport credentials', () => {
  let agent: WsAgent;
  beforeAll(async () => {
    agent = await startWsAgent({ apiKeys: { 'k-123': 'alice' } });
  });
  afterAll(() => agent.close());

  it('presents a token as the auth subprotocol (browsers cannot set headers)', async () => {
    const anonymous = new WebSocketTransport({ url: agent.wsUrl, WebSocket: WS });
    const withToken = new WebSocketTransport({ url: agent.wsUrl, WebSocket: WS, token: async () => 'k-123' });
    try {
      expect((await failure(anonymous.unary(getTaskOp, GetTaskRequest.fromPartial({ id: 'x' })))).code).toBe(A2AErrorCode.Unauthenticated);
      expect((await failure(withToken.unary(getTaskOp, GetTaskRequest.fromPartial({ id: 'x' })))).code).toBe(A2AErrorCode.TaskNotFound);
    } finally {
      await anonymous.close();
      await withToken.close();
    }
  });

  it('the Client selects the websocket interface from the card; per-call headers (apiKey) travel as serviceParams', async () => {
    const client = await Client.connect(agent.url, {
      bindings: ['websocket'],
      transports: { [WEBSOCKET_BINDING]: webSocketTransportFactory({ WebSocket: WS }) },
      apiKey: 'k-123',
    });
    try {
      expect(client.binding).toBe('websocket');
      expect(client.agentInterface.url).toBe(agent.wsUrl);
      const sent = await client.sendMessage({ message: textMessage('steps 1') });
      expect((sent.payload?.value as Task | undefined)?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    } finally {
      await client.close();
    }
  });
});

describe('Client over WebSocket resumes a cut stream by itself', () => {
  it('drop the socket mid-stream: events continue without gaps or duplicates', async () => {
    const agent = await startWsAgent();
    const client = await Client.connect(agent.url, {
      bindings: ['websocket'],
      transports: { [WEBSOCKET_BINDING]: webSocketTransportFactory({ WebSocket: WS }) },
      resume: { attempts: 3, initialDelayMs: 10 },
    });
    try {
      const seqs: Array<number | undefined> = [];
      // The rest is produced once the client noticed the cut (it then resumes after seq 2).
      const stream = client.sendStreamingMessage({ message: textMessage('gate g3 3') }, { onResume: () => agent.gates.open('g3') });
      for await (const e of stream) {
        seqs.push(e.seq);
        if (seqs.length === 2) agent.dropSockets();
      }
      expect(seqs).toEqual([1, 2, 3, 4, 5, 6]);
      expect(stream.resumes).toBeGreaterThanOrEqual(1);
      expect(stream.end).toBe('terminal');
    } finally {
      await client.close();
      await agent.close();
    }
  });
});
