/**
 * Interop: our client against the official TypeScript SDK's A2A v0.3 server (@a2a-js/sdk
 * 0.3.14, exact). The card decides: it is a v0.3 card, so `Client.connect(url)` speaks v0.3 —
 * card resolution, send, stream, get, cancel, the input-required follow-up, resubscribe and
 * errors, over each binding.
 */
import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { TaskState, type Message, type Task } from '@a2a-polyglot/model';
import { Client, textMessage, type BindingKey, type ClientEvent } from '../src/index.js';
import { artifactNames, collect, collectWithCut, connectInterop, lastState } from './helpers.js';
import { startSdkV03Server, type SdkV03Server } from './sdk-v03-server.js';

const BINDINGS: BindingKey[] = ['jsonrpc', 'rest', 'grpc'];

function textOf(message: Message | undefined): string {
  return (message?.parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
}

let server: SdkV03Server;
beforeAll(async () => {
  server = await startSdkV03Server();
});
afterAll(async () => {
  await server?.close();
});

describe('card resolution against the SDK v0.3 server', () => {
  it('reads the v0.3 card as interfaces marked 0.3, the preferred transport first', async () => {
    const client = await Client.connect(server.url);
    expect(client.binding).toBe('jsonrpc');
    expect(client.agentInterface).toMatchObject({ url: server.rpcUrl, protocolBinding: 'JSONRPC', protocolVersion: '0.3' });
    expect(client.card.supportedInterfaces.map((i) => [i.protocolBinding, i.protocolVersion])).toEqual([
      ['JSONRPC', '0.3'],
      ['HTTP+JSON', '0.3'],
      ['GRPC', '0.3'],
    ]);
    expect(client.card.capabilities?.streaming).toBe(true);
  });
});

describe.each(BINDINGS)('our client → @a2a-js/sdk 0.3.14 server over %s', (binding) => {
  let client: Client;
  beforeAll(async () => {
    client = await connectInterop(server.url, binding);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('speaks v0.3 on the interface the card names', () => {
    expect(client.binding).toBe(binding);
    expect(client.agentInterface.protocolVersion).toBe('0.3');
  });

  it('send: a completed task (blocking by default), and a direct message', async () => {
    const done = await client.sendMessage({ message: textMessage('steps 2') });
    expect(done.payload?.$case).toBe('task');
    const task = done.payload?.value as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts.map((a) => a.name)).toEqual(['chunk-0', 'chunk-1']);
    const echo = await client.sendMessage({ message: textMessage('echo hi') });
    expect(echo.payload?.$case).toBe('message');
    expect(textOf(echo.payload?.value as Message)).toBe('echo hi');
  });

  it('stream: task, status, artifacts, final status; ended at the terminal state', async () => {
    const stream = client.sendStreamingMessage({ message: textMessage('steps 2') });
    const events = await collect(stream);
    expect(events.map((e) => e.event.payload?.$case)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(stream.end).toBe('terminal');
  });

  it('get', async () => {
    const done = await client.sendMessage({ message: textMessage('steps 1') });
    const task = done.payload!.value as Task;
    const got = await client.getTask({ id: task.id });
    expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(got.contextId).toBe(task.contextId);
  });

  it('cancel a running task (returnImmediately is sent as blocking: false)', async () => {
    const started = await client.sendMessage({ message: textMessage('hang'), configuration: { returnImmediately: true } });
    const task = started.payload!.value as Task;
    expect(task.status?.state).not.toBe(TaskState.TASK_STATE_COMPLETED);
    const canceled = await client.cancelTask({ id: task.id });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('input-required, then the follow-up message completes the task', async () => {
    const asked = await client.sendMessage({ message: textMessage('ask') });
    const task = asked.payload!.value as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(textOf(task.status?.message)).toBe('what next?');
    const answered = await client.sendMessage({ message: textMessage('blue', { taskId: task.id, contextId: task.contextId }) });
    const after = answered.payload!.value as Task;
    expect(after.id).toBe(task.id);
    expect(after.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(after.artifacts.map((a) => textOf({ parts: a.parts } as Message))).toEqual(['got blue']);
  });

  it('input-required over a stream ends it as interrupted; the streamed follow-up ends it terminal', async () => {
    const first = client.sendStreamingMessage({ message: textMessage('ask') });
    const asked = await collect(first);
    expect(first.end).toBe('interrupted');
    expect(lastState(asked)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const follow = client.sendStreamingMessage({
      message: textMessage('green', { taskId: first.taskId!, contextId: (asked[0]!.event.payload!.value as Task).contextId }),
    });
    const events = await collect(follow);
    expect(follow.end).toBe('terminal');
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('resubscribe (tasks/resubscribe): live events to the end', async () => {
    const key = `sub-${binding}`;
    const started = await client.sendMessage({ message: textMessage(`gate ${key} 2`), configuration: { returnImmediately: true } });
    const task = started.payload!.value as Task;
    const events: ClientEvent[] = [];
    for await (const event of client.subscribeToTask({ id: task.id })) {
      events.push(event);
      if (events.length === 1) server.openGate(key);
    }
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(events.filter((e) => e.event.payload?.$case === 'artifactUpdate')).toHaveLength(2);
  });

  it('errors: TaskNotFound as A2AError; ListTasks (no v0.3 form) refused locally', async () => {
    const error = await client.getTask({ id: 'no-such-task' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AError);
    expect((error as A2AError).code).toBe(A2AErrorCode.TaskNotFound);
    const list = await client.listTasks({}).catch((e: unknown) => e);
    expect((list as A2AError).code).toBe(A2AErrorCode.UnsupportedOperation);
    expect((list as A2AError).message).toMatch(/ListTasks does not exist in A2A v0\.3/);
  });
});

describe.each(BINDINGS)('a cut stream against the SDK v0.3 server (%s): resumed with a fresh resubscribe', (binding) => {
  it('resubscribes by itself; the task ends completed and every artifact arrives, as an event or in a snapshot', async () => {
    const client = await connectInterop(server.url, binding);
    const key = `cut-${binding}`;
    const stream = client.sendStreamingMessage({ message: textMessage(`gate ${key} 3`) });
    const events = await collectWithCut(stream, () => {
      (binding === 'grpc' ? server.grpcProxy : server.proxy).cutAll();
      server.openGate(key); // chunks are produced while the client is away
    });
    expect(stream.resumes).toBe(1);
    expect(stream.end).toBe('terminal');
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactNames(events).all).toEqual(['chunk-0', 'chunk-1', 'chunk-2']);
    await client.close();
  });
});
