import { A2AErrorCode, GRPC_METADATA } from '@a2a-polyglot/core';
import { SendMessageRequest, TaskState, type Task } from '@a2a-polyglot/model';
import { A2AServiceClient } from '@a2a-polyglot/model/grpc';
import { credentials, Metadata } from '@grpc/grpc-js';
import { GrpcTransport, type GrpcStreamEvent } from './client.js';
import { collect, waitFor, startTestServer, TEST_EXTENSION, userMessage, type TestServer } from './helpers.js';

const kinds = (events: readonly GrpcStreamEvent[]) => events.map((e) => e.event.payload?.$case);
const taskOf = (res: { payload?: { $case: string; value: unknown } }) => {
  expect(res.payload?.$case).toBe('task');
  return res.payload!.value as Task;
};

describe('lf.a2a.v1.A2AService over grpc-js', () => {
  let t: TestServer;
  let client: GrpcTransport;

  beforeAll(async () => {
    t = await startTestServer();
    client = new GrpcTransport({ url: t.url });
  });

  afterAll(async () => {
    client.close();
    await t.close();
  });

  describe('the 11 RPCs', () => {
    it('SendMessage answers a completed task with its artifacts (blocking)', async () => {
      const task = taskOf(await client.sendMessage(userMessage('steps 2')));
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(task.artifacts.map((a) => a.name)).toEqual(['chunk-0', 'chunk-1']);
    });

    it('SendMessage answers a direct Message', async () => {
      const res = await client.sendMessage(userMessage('echo hi'));
      expect(res.payload?.$case).toBe('message');
    });

    it('SendStreamingMessage streams the task first, then every event in order, numbered', async () => {
      const stream = client.sendStreamingMessage(userMessage('steps 2'));
      const events = await collect(stream);
      expect(kinds(events)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'artifactUpdate', 'statusUpdate']);
      expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(stream.lastSeq).toBe(5);
    });

    it('SendStreamingMessage of a direct Message is one event numbered 0', async () => {
      const events = await collect(client.sendStreamingMessage(userMessage('echo stream')));
      expect(kinds(events)).toEqual(['message']);
      expect(events[0]!.seq).toBe(0);
    });

    it('GetTask and ListTasks see the task', async () => {
      const task = taskOf(await client.sendMessage(userMessage('steps 1')));
      const got = await client.getTask({ id: task.id, historyLength: 0 });
      expect(got.id).toBe(task.id);
      expect(got.history).toEqual([]);
      const list = await client.listTasks({ contextId: task.contextId });
      expect(list.tasks.map((x) => x.id)).toEqual([task.id]);
      expect(list.pageSize).toBe(50);
    });

    it('CancelTask cancels a running task', async () => {
      const task = taskOf(await client.sendMessage({ ...userMessage('hang'), configuration: { acceptedOutputModes: [], returnImmediately: true } }));
      const canceled = await client.cancelTask({ id: task.id });
      expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    });

    it('SubscribeToTask streams the current Task, then live events until the end', async () => {
      const task = taskOf(await client.sendMessage({ ...userMessage('gate sub'), configuration: { acceptedOutputModes: [], returnImmediately: true } }));
      await waitFor(async () => (await client.getTask({ id: task.id })).status?.state === TaskState.TASK_STATE_WORKING);
      const stream = client.subscribeToTask({ id: task.id });
      const seen: GrpcStreamEvent[] = [];
      for await (const e of stream) {
        seen.push(e);
        if (seen.length === 1) t.gates.open('sub');
      }
      expect(kinds(seen)).toEqual(['task', 'artifactUpdate', 'statusUpdate']);
      expect(seen[0]!.seq).toBe(2); // snapshot = the task as of event 2 (working)
      expect(seen.map((e) => e.seq)).toEqual([2, 3, 4]);
    });

    it('push-config CRUD: create, get, list, delete (idempotent)', async () => {
      const task = taskOf(await client.sendMessage(userMessage('steps 1')));
      const created = await client.createTaskPushNotificationConfig({ taskId: task.id, url: 'http://127.0.0.1:9/hook', token: 'tok' });
      expect(created.id).not.toBe('');
      const got = await client.getTaskPushNotificationConfig({ taskId: task.id, id: created.id });
      expect(got.url).toBe('http://127.0.0.1:9/hook');
      const list = await client.listTaskPushNotificationConfigs({ taskId: task.id });
      expect(list.configs.map((c) => c.id)).toEqual([created.id]);
      await client.deleteTaskPushNotificationConfig({ taskId: task.id, id: created.id });
      await client.deleteTaskPushNotificationConfig({ taskId: task.id, id: created.id });
      expect((await client.listTaskPushNotificationConfigs({ taskId: task.id })).configs).toEqual([]);
    });

    it('GetExtendedAgentCard returns the extended card', async () => {
      expect((await client.getExtendedAgentCard()).name).toBe('grpc-test (extended)');
    });
  });

  describe('metadata', () => {
    it('echoes activated extensions in the response metadata (unary and stream)', async () => {
      const raw = new A2AServiceClient(t.url, credentials.createInsecure());
      const md = new Metadata();
      md.set('A2A-Version', '1.0'); // keys are case-insensitive (grpc-js lower-cases them)
      md.set('a2a-extensions', `${TEST_EXTENSION}, urn:unknown`);
      const headers = await new Promise<Metadata>((resolve, reject) => {
        const call = raw.getExtendedAgentCard({ tenant: '' }, md, (err) => err && reject(err));
        call.on('metadata', resolve);
      });
      expect(headers.get(GRPC_METADATA.extensions)).toEqual([TEST_EXTENSION]);
      raw.close();

      const withExt = new GrpcTransport({ url: t.url, extensions: [TEST_EXTENSION] });
      const stream = withExt.sendStreamingMessage(userMessage('steps 1'));
      await collect(stream);
      expect(stream.activatedExtensions).toEqual([TEST_EXTENSION]);
      withExt.close();
    });

    it('resumes SubscribeToTask after a2a-last-event-id: exactly the later events, no snapshot, no gap', async () => {
      const first = client.sendStreamingMessage(userMessage('gate resume'));
      const head: GrpcStreamEvent[] = [];
      for await (const e of first) {
        head.push(e);
        if (head.length === 2) break; // task (1), working (2); leaving cancels the call
      }
      expect(head.map((e) => e.seq)).toEqual([1, 2]);
      const taskId = (head[0]!.event.payload!.value as Task).id;
      t.gates.open('resume');
      await waitFor(async () => (await client.getTask({ id: taskId })).status?.state === TaskState.TASK_STATE_COMPLETED);
      const rest = await collect(client.subscribeToTask({ id: taskId }, { lastEventId: 2 }));
      expect(kinds(rest)).toEqual(['artifactUpdate', 'statusUpdate']);
      expect(rest.map((e) => e.seq)).toEqual([3, 4]);
    });

    it('rejects a malformed a2a-last-event-id with INVALID_ARGUMENT', async () => {
      const raw = new A2AServiceClient(t.url, credentials.createInsecure());
      const md = new Metadata();
      md.set('a2a-version', '1.0');
      md.set('a2a-last-event-id', 'yesterday');
      const error = await new Promise<any>((resolve) => raw.subscribeToTask({ tenant: '', id: 'x' }, md).on('error', resolve));
      expect(error.code).toBe(3);
      raw.close();
    });

    it('sends a2a-stream-first-seq as initial metadata and a2a-last-seq as trailer', async () => {
      const raw = new A2AServiceClient(t.url, credentials.createInsecure());
      const md = new Metadata();
      md.set('a2a-version', '1.0');
      const call = raw.sendStreamingMessage(SendMessageRequest.fromPartial(userMessage('steps 1')), md);
      const headers = new Promise<Metadata>((resolve) => call.on('metadata', resolve));
      const trailers = new Promise<Metadata>((resolve) => call.on('status', (s) => resolve(s.metadata)));
      call.on('data', () => {});
      expect((await headers).get(GRPC_METADATA.streamFirstSeq)).toEqual(['1']);
      expect((await trailers).get(GRPC_METADATA.streamLastSeq)).toEqual(['4']);
      raw.close();
    });
  });

  describe('cancellation and deadlines', () => {
    it('client cancel stops delivery; the task keeps running and completes', async () => {
      const stream = client.sendStreamingMessage(userMessage('gate keep'));
      let taskId = '';
      const received: GrpcStreamEvent[] = [];
      for await (const e of stream) {
        received.push(e);
        if (e.event.payload?.$case === 'task') taskId = e.event.payload.value.id;
        if (received.length === 2) stream.cancel();
      }
      expect(received).toHaveLength(2); // iteration ended quietly after cancel
      await waitFor(() => t.server.service.openStreams === 0);
      expect((await client.getTask({ id: taskId })).status?.state).toBe(TaskState.TASK_STATE_WORKING);
      t.gates.open('keep');
      await waitFor(async () => (await client.getTask({ id: taskId })).status?.state === TaskState.TASK_STATE_COMPLETED);
    });

    it('an AbortSignal rejects the call with DeadlineExceeded, the task keeps running', async () => {
      const controller = new AbortController();
      const pending = client.sendMessage(userMessage('gate abort'), { signal: controller.signal });
      await waitFor(() => t.gates.reached('abort')); // the call is in flight, its task running
      controller.abort();
      await expect(pending).rejects.toMatchObject({ code: A2AErrorCode.DeadlineExceeded });
      const list = await client.listTasks({ status: TaskState.TASK_STATE_WORKING });
      expect(list.tasks.length).toBeGreaterThan(0);
      t.gates.open('abort');
    });

    it('a unary deadline ends the call with DEADLINE_EXCEEDED; the task keeps running', async () => {
      await expect(client.sendMessage(userMessage('gate deadline'), { timeoutMs: 500 })).rejects.toMatchObject({ code: A2AErrorCode.DeadlineExceeded });
      const working = await client.listTasks({ status: TaskState.TASK_STATE_WORKING });
      expect(working.tasks.length).toBeGreaterThan(0);
      t.gates.open('deadline');
    });

    it('a stream deadline ends delivery with DEADLINE_EXCEEDED and releases the server stream', async () => {
      const stream = client.sendStreamingMessage(userMessage('gate stream-deadline'), { timeoutMs: 1000 });
      const seen: GrpcStreamEvent[] = [];
      await expect(
        (async () => {
          for await (const e of stream) seen.push(e);
        })(),
      ).rejects.toMatchObject({ code: A2AErrorCode.DeadlineExceeded });
      expect(kinds(seen)).toEqual(['task', 'statusUpdate']);
      await waitFor(() => t.server.service.openStreams === 0);
      t.gates.open('stream-deadline');
    });
  });

  it('delivers a long stream completely and in order (backpressure, no loss)', async () => {
    const events = await collect(client.sendStreamingMessage(userMessage('flood 2000 512')));
    expect(events).toHaveLength(2003); // task, working, 2000 artifacts, completed
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  });
});
