import { A2AErrorCode, callContext } from '@a2a-polyglot/core';
import { ListTasksRequest, TaskState, type Task } from '@a2a-polyglot/model';
import { A2ASessionServiceClient, SessionRequest, type SessionResponse } from '@a2a-polyglot/model/session';
import { Client, credentials, Metadata, status as GrpcCode, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { GrpcSessionClient, type SessionStreamEvent } from './client.js';
import { collect, detailsOf, waitFor, waitForSteady, startTestServer, userMessage, type TestServer } from './helpers.js';

const kinds = (events: readonly SessionStreamEvent[]) => events.map((e) => e.event.payload?.$case);
const taskIdOf = (events: readonly SessionStreamEvent[]) => (events[0]!.event.payload!.value as Task).id;

/** A raw session call (generated client), for protocol-level tests. */
function rawSession(url: string) {
  const client = new A2ASessionServiceClient(url, credentials.createInsecure());
  const md = new Metadata();
  md.set('a2a-version', '1.0');
  const call = client.session(md);
  const frames: SessionResponse[] = [];
  const status = new Promise<StatusObject>((resolve) => call.on('status', resolve));
  call.on('error', () => {});
  return { client, call, frames, status };
}

describe('experimental A2ASessionService', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ grpc: { maxOperationsPerSession: 50 } });
  });

  afterAll(async () => {
    await t.close();
  });

  it('multiplexes many concurrent tasks and unary operations on one session', async () => {
    const session = new GrpcSessionClient({ url: t.url });
    const streams = Array.from({ length: 20 }, (_, i) => session.sendStreaming(userMessage(`steps ${1 + (i % 3)}`)));
    const unary = await Promise.all([session.send(userMessage('echo a')), session.send(userMessage('steps 1')), session.list({ pageSize: 5 })]);
    const results = await Promise.all(streams.map((s) => collect(s)));
    results.forEach((events, i) => {
      const n = 1 + (i % 3);
      expect(kinds(events)).toEqual(['task', 'statusUpdate', ...Array(n).fill('artifactUpdate'), 'statusUpdate']);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, k) => k + 1));
      const id = taskIdOf(events);
      for (const e of events.slice(1)) expect((e.event.payload!.value as { taskId: string }).taskId).toBe(id);
    });
    expect(new Set(results.map(taskIdOf)).size).toBe(20);
    expect(await Promise.all(streams.map((s) => s.end))).toEqual(results.map((ev) => ({ state: TaskState.TASK_STATE_COMPLETED, lastSeq: ev.length })));
    expect(unary[0].payload?.$case).toBe('message');
    expect((unary[1].payload!.value as Task).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(unary[2].tasks.length).toBe(5);
    const got = await session.get({ id: taskIdOf(results[0]!) });
    expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(await session.close()).toBeUndefined();
  });

  it('follow-up to an input-required task is a send with the taskId', async () => {
    const session = new GrpcSessionClient({ url: t.url });
    const first = (await session.send(userMessage('input'))).payload!.value as Task;
    expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const events = await collect(session.sendStreaming(userMessage('Paris', { taskId: first.id })));
    expect(kinds(events)).toEqual(['task', 'artifactUpdate', 'statusUpdate']);
    expect((events[2]!.event.payload!.value as { status: { state: TaskState } }).status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await session.close();
  });

  it('cancel: the task is CANCELED and its open stream ends with that state', async () => {
    const session = new GrpcSessionClient({ url: t.url });
    const stream = session.sendStreaming(userMessage('hang'));
    const it = stream[Symbol.asyncIterator]();
    const first = await it.next();
    const taskId = (first.value.event.payload.value as Task).id;
    const canceled = await session.cancel({ id: taskId });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    for (;;) if ((await it.next()).done) break;
    expect((await stream.end).state).toBe(TaskState.TASK_STATE_CANCELED);
    await session.close();
  });

  it('errors of one operation arrive as error frames and leave the session usable', async () => {
    const session = new GrpcSessionClient({ url: t.url });
    await expect(session.get({ id: 'missing' })).rejects.toMatchObject({ code: A2AErrorCode.TaskNotFound, metadata: { taskId: 'missing' } });
    await expect(session.send({ message: { messageId: 'x', parts: [] } })).rejects.toMatchObject({ code: A2AErrorCode.InvalidParams });
    await expect(collect(session.subscribe({ id: 'missing' }))).rejects.toMatchObject({ code: A2AErrorCode.TaskNotFound });
    expect((await session.send(userMessage('echo still here'))).payload?.$case).toBe('message');
    await session.close();
  });

  it('unsubscribe stops delivery (end frame with the current state); the task keeps running', async () => {
    const session = new GrpcSessionClient({ url: t.url });
    const stream = session.sendStreaming(userMessage('gate unsub'));
    const seen: SessionStreamEvent[] = [];
    for await (const e of stream) {
      seen.push(e);
      if (seen.length === 2) stream.unsubscribe();
    }
    expect(kinds(seen)).toEqual(['task', 'statusUpdate']);
    expect(await stream.end).toEqual({ state: TaskState.TASK_STATE_WORKING, lastSeq: 2 });
    const taskId = taskIdOf(seen);
    expect((await session.get({ id: taskId })).status?.state).toBe(TaskState.TASK_STATE_WORKING);
    t.gates.open('unsub');
    await waitFor(async () => (await session.get({ id: taskId })).status?.state === TaskState.TASK_STATE_COMPLETED);
    await session.close();
  });

  it('subscribe from seq: exactly the missed events, no gap, no duplicate', async () => {
    const session = new GrpcSessionClient({ url: t.url });
    const stream = session.sendStreaming(userMessage('gate resub'));
    const head: SessionStreamEvent[] = [];
    for await (const e of stream) {
      head.push(e);
      if (head.length === 2) stream.unsubscribe();
    }
    const taskId = taskIdOf(head);
    const plain = session.subscribe({ id: taskId });
    const plainEvents = plain[Symbol.asyncIterator]();
    const snapshot = await plainEvents.next(); // subscribed while the task still runs
    const resumed = session.subscribe({ id: taskId }, { resumeAfterSeq: stream.lastSeq });
    t.gates.open('resub');
    const rest = await collect(resumed);
    expect(rest.map((e) => e.seq)).toEqual([3, 4]);
    expect(kinds(rest)).toEqual(['artifactUpdate', 'statusUpdate']);
    expect([...head, ...rest].map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(snapshot.value.event.payload.$case).toBe('task');
    expect(snapshot.value.seq).toBe(2);
    const after: SessionStreamEvent[] = [];
    for (let r = await plainEvents.next(); !r.done; r = await plainEvents.next()) after.push(r.value);
    expect(after.map((e) => e.seq)).toEqual([3, 4]);
    await session.close();
  });

  it('half-close: in-flight operations finish (streams run to their end), then the call ends OK', async () => {
    const session = new GrpcSessionClient({ url: t.url });
    const stream = session.sendStreaming(userMessage('gate half'));
    const reply = session.send(userMessage('echo before close'));
    const it = stream[Symbol.asyncIterator]();
    await it.next();
    const closing = session.close();
    await expect(session.get({ id: 'x' })).rejects.toMatchObject({ code: A2AErrorCode.Unavailable }); // no new operations
    t.gates.open('half');
    const rest: SessionStreamEvent[] = [];
    for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value);
    expect(kinds(rest).at(-1)).toBe('statusUpdate');
    expect((await stream.end).state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect((await reply).payload?.$case).toBe('message');
    expect(await closing).toBeUndefined();
  });

  it('peer loss closes the session’s streams on the server; tasks keep running', async () => {
    const session = new GrpcSessionClient({ url: t.url });
    const stream = session.sendStreaming(userMessage('gate peer'));
    const it = stream[Symbol.asyncIterator]();
    const taskId = ((await it.next()).value.event.payload.value as Task).id;
    await waitFor(() => t.server.sessionStats().openOperations >= 1);
    const before = t.server.sessionStats().openSessions;
    session.destroy();
    await waitFor(() => t.server.sessionStats().openSessions === before - 1);
    const observer = new GrpcSessionClient({ url: t.url });
    expect((await observer.get({ id: taskId })).status?.state).toBe(TaskState.TASK_STATE_WORKING);
    t.gates.open('peer');
    await waitFor(async () => (await observer.get({ id: taskId })).status?.state === TaskState.TASK_STATE_COMPLETED);
    await observer.close();
  });

  it('protocol violations end the session with INVALID_ARGUMENT: duplicate correlation id, missing id, malformed bytes', async () => {
    const dup = rawSession(t.url);
    const gate = SessionRequest.fromPartial({ correlationId: 'a', operation: { $case: 'send', value: { request: userMessage('gate dup'), streaming: true } } });
    dup.call.write(gate);
    dup.call.write(gate);
    dup.call.on('data', () => {});
    const s1 = await dup.status;
    expect(s1.code).toBe(GrpcCode.INVALID_ARGUMENT);
    expect(detailsOf({ ...s1, message: s1.details, name: 'x' } as ServiceError).info?.reason).toBe(A2AErrorCode.InvalidRequest);
    dup.client.close();
    t.gates.open('dup');

    const noId = rawSession(t.url);
    noId.call.write(SessionRequest.fromPartial({ operation: { $case: 'get', value: { id: 'x' } } }));
    expect((await noId.status).code).toBe(GrpcCode.INVALID_ARGUMENT);
    noId.client.close();

    const raw = new Client(t.url, credentials.createInsecure());
    const md = new Metadata();
    md.set('a2a-version', '1.0');
    const call = raw.makeBidiStreamRequest(
      '/lf.a2a.v1.A2ASessionService/Session',
      (b: Buffer) => b,
      (b: Buffer) => b,
      md,
    );
    const status = new Promise<StatusObject>((resolve) => call.on('status', resolve));
    call.on('error', () => {});
    call.write(Buffer.from([0x0a, 0x7f, 0x01]));
    const s3 = await status;
    expect(s3.code).toBe(GrpcCode.INVALID_ARGUMENT);
    expect(detailsOf({ ...s3, message: s3.details, name: 'x' } as ServiceError).info?.reason).toBe(A2AErrorCode.ParseError);
    raw.close();
  });

  it('a frame without an operation gets an error frame; the session continues', async () => {
    const s = rawSession(t.url);
    s.call.on('data', (f: SessionResponse) => s.frames.push(f));
    s.call.write(SessionRequest.fromPartial({ correlationId: 'empty' }));
    s.call.write(SessionRequest.fromPartial({ correlationId: 'ok', operation: { $case: 'list', value: { pageSize: 1 } } }));
    s.call.end();
    expect((await s.status).code).toBe(GrpcCode.OK);
    const byId = Object.fromEntries(s.frames.map((f) => [f.correlationId, f.frame?.$case]));
    expect(byId).toEqual({ empty: 'error', ok: 'result' });
    s.client.close();
  });
});

describe('session limits', () => {
  it('caps concurrent operations per session with RESOURCE_EXHAUSTED error frames', async () => {
    const t = await startTestServer({ grpc: { maxOperationsPerSession: 2 } });
    const session = new GrpcSessionClient({ url: t.url });
    const a = session.sendStreaming(userMessage('gate cap'));
    const b = session.sendStreaming(userMessage('gate cap'));
    await expect(session.get({ id: 'x' })).rejects.toMatchObject({ code: A2AErrorCode.ResourceExhausted });
    t.gates.open('cap');
    await Promise.all([collect(a), collect(b)]);
    await expect(session.get({ id: 'x' })).rejects.toMatchObject({ code: A2AErrorCode.TaskNotFound }); // slots are free again
    await session.close();
    await t.close();
  });

  it('caps open sessions per server with RESOURCE_EXHAUSTED', async () => {
    const t = await startTestServer({ grpc: { maxSessions: 2 } });
    const s1 = new GrpcSessionClient({ url: t.url });
    const s2 = new GrpcSessionClient({ url: t.url });
    await Promise.all([s1.send(userMessage('echo 1')), s2.send(userMessage('echo 2'))]);
    const s3 = new GrpcSessionClient({ url: t.url });
    await expect(s3.send(userMessage('echo 3'))).rejects.toMatchObject({ code: A2AErrorCode.ResourceExhausted });
    expect((await s3.closed)?.code).toBe(A2AErrorCode.ResourceExhausted);
    await s1.close();
    await waitFor(() => t.server.sessionStats().openSessions === 1);
    const s4 = new GrpcSessionClient({ url: t.url });
    expect((await s4.send(userMessage('echo 4'))).payload?.$case).toBe('message');
    await Promise.all([s2.close(), s4.close()]);
    await t.close();
  });

  it('a frame over the max message size fails only its operation (PayloadTooLarge), not the session', async () => {
    const t = await startTestServer({ grpc: { maxSendMessageBytes: 64 * 1024 } });
    const session = new GrpcSessionClient({ url: t.url });
    const big = session.sendStreaming(userMessage('flood 2 100000'));
    const seen: SessionStreamEvent[] = [];
    await expect(
      (async () => {
        for await (const e of big) seen.push(e);
      })(),
    ).rejects.toMatchObject({ code: A2AErrorCode.PayloadTooLarge });
    expect(kinds(seen)).toEqual(['task', 'statusUpdate']);
    expect((await session.send(userMessage('echo still open'))).payload?.$case).toBe('message');
    await session.close();
    await t.close();
  });

  it('a slow reader does not grow server memory: frames stop at the bound, the log keeps the rest', async () => {
    const maxBufferedFrames = 8;
    const t = await startTestServer({ grpc: { maxBufferedFrames } });
    const s = rawSession(t.url);
    const seqs: number[] = [];
    s.call.on('data', (f: SessionResponse) => {
      if (f.frame?.$case === 'event') seqs.push(Number(f.frame.value.seq));
      if (f.frame?.$case === 'end') s.call.end();
      if (seqs.length === 1) s.call.pause(); // then the client stops reading
    });
    s.call.write(
      SessionRequest.fromPartial({ correlationId: 'flood', operation: { $case: 'send', value: { request: userMessage('flood 3000 4096'), streaming: true } } }),
    );
    // The agent produces all 3000 artifacts (3003 events, ~12 MB, in the task's log) while
    // the client reads nothing.
    await waitFor(async () => (await t.handler.listTasks(ListTasksRequest.fromPartial({ status: TaskState.TASK_STATE_COMPLETED }), ctx())).tasks.length === 1, {
      timeoutMs: 10_000,
    });
    // Wait until the server stops writing: the count holds still for 5 samples 100 ms apart
    // (half a second with the whole log available and nothing read).
    const written = await waitForSteady(() => t.server.sessionStats().framesWritten, { steadyChecks: 5, intervalMs: 100, what: 'the server to stop writing' });
    // Only what the HTTP/2 flow-control windows admit was written (about 40 frames here), and
    // never more than the bound waited in the server's write queue: the paused stream costs a
    // cursor into the log, not a buffer.
    expect(written).toBeLessThan(300);
    expect(t.server.sessionStats().framesWritten).toBe(written);
    expect(t.server.sessionStats().maxPendingFrames).toBeLessThanOrEqual(maxBufferedFrames);
    // Reading resumes: every event arrives, in order, without gap.
    s.call.resume();
    expect((await s.status).code).toBe(GrpcCode.OK);
    expect(seqs).toEqual(Array.from({ length: 3003 }, (_, i) => i + 1));
    expect(t.server.sessionStats().openSessions).toBe(0);
    s.client.close();
    await t.close();
  });

  it('server shutdown: every open operation gets an UNAVAILABLE error frame, then the session ends UNAVAILABLE', async () => {
    const t = await startTestServer();
    const session = new GrpcSessionClient({ url: t.url });
    const stream = session.sendStreaming(userMessage('gate shut'));
    const it = stream[Symbol.asyncIterator]();
    await it.next();
    const blocking = session.send(userMessage('gate shut2'));
    await waitFor(() => t.server.sessionStats().openOperations === 2);
    const closing = t.close();
    await expect(
      (async () => {
        for (;;) if ((await it.next()).done) return;
      })(),
    ).rejects.toMatchObject({ code: A2AErrorCode.Unavailable, message: 'The server is shutting down' });
    await expect(blocking).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
    expect((await session.closed)?.code).toBe(A2AErrorCode.Unavailable);
    await closing;
  });

  it('server shutdown, on the wire: one UNAVAILABLE error frame per open operation, then status UNAVAILABLE', async () => {
    const t = await startTestServer();
    const s = rawSession(t.url);
    s.call.on('data', (f: SessionResponse) => s.frames.push(f));
    s.call.write(
      SessionRequest.fromPartial({ correlationId: 'stream', operation: { $case: 'send', value: { request: userMessage('gate wire'), streaming: true } } }),
    );
    s.call.write(
      SessionRequest.fromPartial({ correlationId: 'unary', operation: { $case: 'send', value: { request: userMessage('gate wire2'), streaming: false } } }),
    );
    await waitFor(() => t.server.sessionStats().openOperations === 2 && s.frames.length >= 2);
    const closing = t.close();
    const status = await s.status;
    expect(status.code).toBe(GrpcCode.UNAVAILABLE);
    const errors = s.frames.filter((f) => f.frame?.$case === 'error').map((f) => [f.correlationId, f.frame?.$case === 'error' && f.frame.value.reason]);
    expect(errors.sort()).toEqual([
      ['stream', 'UNAVAILABLE'],
      ['unary', 'UNAVAILABLE'],
    ]);
    expect(s.frames.at(-1)!.frame?.$case).toBe('error');
    s.client.close();
    await closing;
  });
});

function ctx() {
  return callContext('IN-PROCESS', { 'a2a-version': '1.0' });
}
