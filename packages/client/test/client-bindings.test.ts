/**
 * The client against our real servers, the same scenarios on every binding: card
 * resolution, the 11 operations, streams (ended vs cut), errors as A2AError.
 */
import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { TaskState, type Task } from '@a2a-polyglot/model';
import { Client, GRPC_BINDING, textMessage, type BindingKey, type ClientEvent } from '../src/index.js';
import { grpcTransportFactory } from '../src/grpc.js';
import { collect, lastState, startTestAgent, type TestAgent } from './helpers.js';

const BINDINGS: BindingKey[] = ['jsonrpc', 'rest', 'grpc'];

function cases(events: readonly ClientEvent[]): string[] {
  return events.map((e) => e.event.payload?.$case ?? '?');
}

describe.each(BINDINGS)('Client over %s', (binding) => {
  let agent: TestAgent;
  let client: Client;

  beforeAll(async () => {
    agent = await startTestAgent();
    client = await Client.connect(agent.url, { bindings: [binding], transports: { [GRPC_BINDING]: grpcTransportFactory }, timeoutMs: 5000 });
  });

  afterAll(async () => {
    await client?.close();
    await agent?.close();
  });

  it('picks the requested binding from the card', () => {
    expect(client.binding).toBe(binding);
    expect(client.card.name).toBe('client-test');
  });

  it('sendMessage: a completed task, and a direct Message answer', async () => {
    const done = await client.sendMessage({ message: textMessage('steps 2') });
    expect(done.payload?.$case).toBe('task');
    const task = done.payload!.value as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts).toHaveLength(2);
    const echo = await client.sendMessage({ message: textMessage('echo hi') });
    expect(echo.payload?.$case).toBe('message');
  });

  it('sendStreamingMessage: events in order with increasing seq, ended at the terminal state', async () => {
    const stream = client.sendStreamingMessage({ message: textMessage('steps 2') });
    const events = await collect(stream);
    expect(cases(events)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
    const seqs = events.map((e) => e.seq);
    expect(seqs.every((s) => typeof s === 'number')).toBe(true);
    expect([...seqs].sort((a, b) => a! - b!)).toEqual(seqs);
    expect(stream.end).toBe('terminal');
    expect(stream.resumes).toBe(0);
    expect(stream.taskId).toBeTruthy();
  });

  it('a message-only stream ends after the message', async () => {
    const stream = client.sendStreamingMessage({ message: textMessage('echo there') });
    const events = await collect(stream);
    expect(cases(events)).toEqual(['message']);
    expect(stream.end).toBe('message');
  });

  it('input-required ends the stream as interrupted; the follow-up completes the task', async () => {
    const first = client.sendStreamingMessage({ message: textMessage('input') });
    const events = await collect(first);
    expect(first.end).toBe('interrupted');
    expect(lastState(events)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const second = client.sendStreamingMessage({ message: textMessage('blue', { taskId: first.taskId! }) });
    const more = await collect(second);
    expect(lastState(more)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(second.end).toBe('terminal');
  });

  it('getTask, listTasks, cancelTask', async () => {
    const started = await client.sendMessage({ message: textMessage('hang'), configuration: { returnImmediately: true } });
    const task = started.payload!.value as Task;
    const got = await client.getTask({ id: task.id, historyLength: 0 });
    expect(got.id).toBe(task.id);
    const list = await client.listTasks({ contextId: task.contextId });
    expect(list.tasks.map((t) => t.id)).toEqual([task.id]);
    const canceled = await client.cancelTask({ id: task.id });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('subscribeToTask: the snapshot first, then live events to the end', async () => {
    const started = await client.sendMessage({ message: textMessage(`gate sub-${binding} 2`), configuration: { returnImmediately: true } });
    const task = started.payload!.value as Task;
    const stream = client.subscribeToTask({ id: task.id });
    const seen: ClientEvent[] = [];
    for await (const event of stream) {
      seen.push(event);
      if (seen.length === 1) agent.gates.open(`sub-${binding}`);
    }
    expect(seen[0]!.event.payload?.$case).toBe('task');
    expect(lastState(seen)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(cases(seen).filter((c) => c === 'artifactUpdate')).toHaveLength(2);
    expect(stream.end).toBe('terminal');
  });

  it('push-config CRUD and the extended card', async () => {
    const done = await client.sendMessage({ message: textMessage('hang'), configuration: { returnImmediately: true } });
    const taskId = (done.payload!.value as Task).id;
    const created = await client.createTaskPushNotificationConfig({ taskId, url: 'http://127.0.0.1:9/hook', token: 'tok' });
    expect(created.id).not.toBe('');
    const got = await client.getTaskPushNotificationConfig({ taskId, id: created.id });
    expect(got.url).toBe('http://127.0.0.1:9/hook');
    const list = await client.listTaskPushNotificationConfigs({ taskId });
    expect(list.configs.map((c) => c.id)).toEqual([created.id]);
    await client.deleteTaskPushNotificationConfig({ taskId, id: created.id });
    expect((await client.listTaskPushNotificationConfigs({ taskId })).configs).toHaveLength(0);
    await client.cancelTask({ id: taskId });
    const extended = await client.getExtendedAgentCard();
    expect(extended.name).toBe('client-test (extended)');
  });

  it('errors arrive as A2AError with the same code on every binding', async () => {
    const missing = await client.getTask({ id: 'no-such-task' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(A2AError);
    expect((missing as A2AError).code).toBe(A2AErrorCode.TaskNotFound);
    const done = await client.sendMessage({ message: textMessage('steps 1') });
    const notCancelable = await client.cancelTask({ id: (done.payload!.value as Task).id }).catch((e: unknown) => e);
    expect((notCancelable as A2AError).code).toBe(A2AErrorCode.TaskNotCancelable);
    const subMissing = await collect(client.subscribeToTask({ id: 'no-such-task' })).catch((e: unknown) => e);
    expect((subMissing as A2AError).code).toBe(A2AErrorCode.TaskNotFound);
  });

  it('a failing agent ends the stream with TASK_STATE_FAILED (an end, not a cut)', async () => {
    const stream = client.sendStreamingMessage({ message: textMessage('fail') });
    const events = await collect(stream);
    expect(lastState(events)).toBe(TaskState.TASK_STATE_FAILED);
    expect(stream.end).toBe('terminal');
  });

  it('aborting a stream stops delivery with an aborted error; the task keeps running', async () => {
    const controller = new AbortController();
    const stream = client.sendStreamingMessage({ message: textMessage('hang') }, { signal: controller.signal });
    const seen: ClientEvent[] = [];
    const error = await (async () => {
      for await (const event of stream) {
        seen.push(event);
        if (seen.length === 2) controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AError);
    expect((error as A2AError).metadata.clientFailure).toBe('aborted');
    const task = await client.getTask({ id: stream.taskId! });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    await client.cancelTask({ id: stream.taskId! });
  });
});
