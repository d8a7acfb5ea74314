import { TaskState, type StreamResponse } from '@a2a-polyglot/model';
import { testAgentCard, userSend, waitFor } from '@a2a-polyglot/testing';
import { A2AErrorCode, callContext, InMemoryEventLog, RequestHandler } from '../src/index.js';
import { followTask } from '../src/event-stream.js';

/** Sealed as by a streamed run (its stream may not have read yet): kept for late resumes. */
const STREAMED = { awaitingReader: true } as const;

const ev = (n: number): StreamResponse => ({ payload: { $case: 'message', value: { messageId: String(n) } as never } });

describe('InMemoryEventLog', () => {
  it('numbers events from 1 and reads after a cursor', async () => {
    const log = new InMemoryEventLog();
    expect(await log.append('t', ev(1))).toBe(1);
    expect(await log.append('t', ev(2))).toBe(2);
    expect((await log.readAfter('t', 0)).events.map((e) => e.seq)).toEqual([1, 2]);
    expect((await log.readAfter('t', 1)).events.map((e) => e.seq)).toEqual([2]);
    expect(await log.readAfter('t', 2)).toEqual({ events: [], gap: false });
    expect(await log.lastSeq('t')).toBe(2);
  });

  it('bounds memory per task and reports a gap to readers behind the window', async () => {
    const log = new InMemoryEventLog({ maxEventsPerTask: 8 });
    for (let i = 1; i <= 100; i++) await log.append('t', ev(i));
    expect((await log.readAfter('t', 96)).events.map((e) => e.seq)).toEqual([97, 98, 99, 100]);
    expect((await log.readAfter('t', 0)).gap).toBe(true);
    expect((await log.readAfter('t', 80)).gap).toBe(true);
    let held = 0;
    for (let after = 0; after < 100; after++) if (!(await log.readAfter('t', after)).gap) held = Math.max(held, 100 - after);
    expect(held).toBeLessThanOrEqual(8);
  });

  it('wakes waiters on append and on abort', async () => {
    const log = new InMemoryEventLog();
    const ac = new AbortController();
    const woke = log.waitFor('t', 0, ac.signal);
    await log.append('t', ev(1));
    await expect(woke).resolves.toBeUndefined();
    const aborted = new AbortController();
    const waiting = log.waitFor('t', 1, aborted.signal);
    aborted.abort();
    await expect(waiting).resolves.toBeUndefined();
  });

  it('drops a sealed log after its retention time', async () => {
    jest.useFakeTimers();
    try {
      const log = new InMemoryEventLog({ retentionMs: 1000 });
      await log.append('t', ev(1));
      log.seal('t', STREAMED);
      expect(log.size).toBe(1);
      jest.advanceTimersByTime(1001);
      expect(log.size).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps a sealed log past its retention while someone waits on it, then drops it', async () => {
    jest.useFakeTimers();
    try {
      const log = new InMemoryEventLog({ retentionMs: 1000 });
      await log.append('watched', ev(1));
      await log.append('other', ev(1));
      const reader = new AbortController();
      const waiting = log.waitFor('watched', 1, reader.signal);
      log.seal('watched', STREAMED);
      jest.advanceTimersByTime(500);
      log.seal('other', STREAMED);
      jest.advanceTimersByTime(501);
      expect(log.size).toBe(2);
      reader.abort();
      await waiting;
      jest.advanceTimersByTime(500);
      expect(await log.lastSeq('other')).toBe(0);
      expect(await log.lastSeq('watched')).toBe(1);
      jest.advanceTimersByTime(501);
      expect(log.size).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('followTask', () => {
  it('resyncs a reader that fell behind the window with a snapshot (overflow policy)', async () => {
    const log = new InMemoryEventLog({ maxEventsPerTask: 4 });
    for (let i = 1; i <= 20; i++) await log.append('t', ev(i));
    const snapshot = async () => ({
      task: { id: 't', contextId: 'c', status: { state: 2, message: undefined, timestamp: undefined }, artifacts: [], history: [], metadata: undefined },
      seq: 20,
    });
    const stream = followTask(log, 't', { afterSeq: 0 }, snapshot);
    const it = stream[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value).toMatchObject({ seq: 20, event: { payload: { $case: 'task' } } });
    await log.append('t', ev(21));
    expect((await it.next()).value.seq).toBe(21);
    stream.close();
    expect((await it.next()).done).toBe(true);
  });

  it('close() releases a stream that waits for the next event', async () => {
    const log = new InMemoryEventLog();
    await log.append('t', ev(1));
    const stream = followTask(log, 't', { afterSeq: 1 }, async () => undefined);
    const pending = stream[Symbol.asyncIterator]().next();
    stream.close();
    await expect(pending).resolves.toMatchObject({ done: true });
  });

  it('waits on a log that can call back with a waiter entry, no AbortController, and drops the entry on close', async () => {
    const log = new InMemoryEventLog();
    await log.append('t', ev(1));
    const waitFor = jest.spyOn(log, 'waitFor');
    const removeWaiter = jest.spyOn(log, 'removeWaiter');
    const caller = new AbortController();
    const stream = followTask(log, 't', { afterSeq: 1 }, async () => undefined, caller.signal);
    const next = stream.nextBatch();
    await log.append('t', ev(2));
    expect((await next)?.map((e) => e.seq)).toEqual([2]);
    const idle = stream.nextBatch();
    caller.abort();
    await expect(idle).resolves.toBeUndefined();
    expect(removeWaiter).toHaveBeenCalledTimes(1);
    expect(waitFor).not.toHaveBeenCalled();
  });

  it('follows a log without addWaiter through waitFor', async () => {
    const inner = new InMemoryEventLog();
    const log = {
      append: inner.append.bind(inner),
      readAfter: inner.readAfter.bind(inner),
      lastSeq: inner.lastSeq.bind(inner),
      waitFor: inner.waitFor.bind(inner),
      seal: inner.seal.bind(inner),
    };
    await log.append('t', ev(1));
    const stream = followTask(log, 't', { afterSeq: 1 }, async () => undefined);
    const next = stream.nextBatch();
    await log.append('t', ev(2));
    expect((await next)?.map((e) => e.seq)).toEqual([2]);
    const idle = stream.nextBatch();
    stream.close();
    await expect(idle).resolves.toBeUndefined();
  });
});

describe('InMemoryEventLog.addWaiter', () => {
  it('calls the waiter once on the next append, not when an event is there already, and not after removeWaiter', async () => {
    const log = new InMemoryEventLog();
    const wake = jest.fn();
    expect(log.addWaiter('t', 0, wake)).toBe(true);
    log.append('t', ev(1));
    log.append('t', ev(2));
    expect(wake).toHaveBeenCalledTimes(1);
    expect(log.addWaiter('t', 1, wake)).toBe(false);
    const removed = jest.fn();
    expect(log.addWaiter('t', 2, removed)).toBe(true);
    log.removeWaiter('t', removed);
    log.append('t', ev(3));
    expect(removed).not.toHaveBeenCalled();
  });
});

describe('InMemoryEventLog: logs no stream read', () => {
  it('drops a sealed log nobody read at once, and keeps one that was read or awaits its stream', async () => {
    const log = new InMemoryEventLog({ retentionMs: 60_000 });
    await log.append('unread', ev(1));
    log.seal('unread');
    expect(await log.lastSeq('unread')).toBe(0);
    await log.append('read', ev(1));
    log.readAfter('read', 0);
    log.seal('read');
    expect((await log.readAfter('read', 0)).events).toHaveLength(1);
    await log.append('promised', ev(1));
    log.seal('promised', STREAMED);
    expect((await log.readAfter('promised', 0)).events).toHaveLength(1);
  });
});

describe('InMemoryEventLog retention bound', () => {
  it('keeps at most maxSealedLogs sealed logs, dropping the oldest first', async () => {
    const log = new InMemoryEventLog({ maxSealedLogs: 3, retentionMs: 60_000 });
    for (let i = 0; i < 10; i++) {
      await log.append(`t${i}`, ev(1));
      log.seal(`t${i}`, STREAMED);
    }
    expect(log.size).toBe(3);
    expect((await log.readAfter('t9', 0)).events).toHaveLength(1);
    expect(await log.lastSeq('t0')).toBe(0);
  });

  it('keeps at most maxSealedEvents events in sealed logs together, dropping the oldest logs first', async () => {
    const log = new InMemoryEventLog({ maxSealedLogs: 100, maxSealedEvents: 10, retentionMs: 60_000 });
    for (let t = 0; t < 5; t++) {
      for (let i = 1; i <= 4; i++) await log.append(`t${t}`, ev(i));
      log.seal(`t${t}`, STREAMED);
    }
    // 5 logs of 4 events: only the newest two fit in 10 events.
    expect(log.size).toBe(2);
    expect(await log.lastSeq('t2')).toBe(0);
    expect((await log.readAfter('t4', 0)).events).toHaveLength(4);
    expect((await log.readAfter('t3', 0)).events).toHaveLength(4);
    await log.append('live', ev(1));
    for (let i = 2; i <= 20; i++) await log.append('live', ev(i));
    expect((await log.readAfter('live', 0)).events).toHaveLength(20); // unsealed logs are not counted
  });

  it('never drops a sealed log someone still waits on, nor an unsealed one', async () => {
    const log = new InMemoryEventLog({ maxSealedLogs: 1 });
    await log.append('live', ev(1));
    await log.append('watched', ev(1));
    const ac = new AbortController();
    const waiting = log.waitFor('watched', 1, ac.signal);
    log.seal('watched', STREAMED);
    await log.append('done', ev(1));
    log.seal('done', STREAMED);
    await log.append('done2', ev(1));
    log.seal('done2', STREAMED);
    expect((await log.readAfter('watched', 0)).events).toHaveLength(1);
    expect((await log.readAfter('live', 0)).events).toHaveLength(1);
    expect(await log.lastSeq('done')).toBe(0);
    ac.abort();
    await waiting;
  });
});

describe('InMemoryEventLog byte bound', () => {
  const MB = 1024 * 1024;
  /** An event carrying `bytes` of text (a flat string of its own). */
  const big = (n: number, bytes = MB): StreamResponse => ({
    payload: {
      $case: 'message',
      value: { messageId: String(n), parts: [{ content: { $case: 'text', value: Buffer.alloc(bytes, String(n % 10)).toString('latin1') } }] } as never,
    },
  });

  it('holds at most maxBytes of events however many large ones are appended, dropping the oldest sealed logs first', async () => {
    const log = new InMemoryEventLog({ maxBytes: 8 * MB });
    for (let t = 0; t < 30; t++) {
      await log.append(`t${t}`, big(1));
      await log.append(`t${t}`, big(2));
      log.seal(`t${t}`, STREAMED);
      expect(log.bytes).toBeLessThanOrEqual(8 * MB);
    }
    // Counts alone (1000 logs, 32768 events) would have kept all 60 MB; the newest logs stay whole.
    expect(log.size).toBe(3);
    expect((await log.readAfter('t29', 0)).events.map((e) => e.seq)).toEqual([1, 2]);
    expect(await log.readAfter('t0', 1)).toEqual({ events: [], gap: true });
  });

  it('then drops the oldest events of live logs, so a reader behind them gets a gap, never a silent skip', async () => {
    const log = new InMemoryEventLog({ maxBytes: 8 * MB });
    for (let i = 1; i <= 5; i++) await log.append('old', big(i));
    for (let i = 1; i <= 9; i++) await log.append('new', big(i));
    expect(log.bytes).toBeLessThanOrEqual(8 * MB);
    // The older log lost its events first, then the newer one its oldest: 7 of 1 MiB fit.
    expect((await log.readAfter('old', 0)).gap).toBe(true);
    expect(await log.readAfter('old', 5)).toEqual({ events: [], gap: false });
    expect((await log.readAfter('new', 1)).gap).toBe(true);
    expect((await log.readAfter('new', 2)).events.map((e) => e.seq)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    // A follower behind the dropped events resyncs from the snapshot, then goes on from its seq.
    const snapshot = async () => ({
      task: { id: 'new', contextId: 'c', status: { state: 2, message: undefined, timestamp: undefined }, artifacts: [], history: [], metadata: undefined },
      seq: 9,
    });
    const stream = followTask(log, 'new', { afterSeq: 1 }, snapshot);
    expect(await stream.nextBatch()).toEqual([{ seq: 9, event: { payload: { $case: 'task', value: expect.objectContaining({ id: 'new' }) } } }]);
    await log.append('new', ev(10));
    expect((await stream.nextBatch())?.map((e) => e.seq)).toEqual([10]);
    stream.close();
  });

  it('frees the bytes of dropped logs (retention, nobody read) and of events evicted by count', async () => {
    const log = new InMemoryEventLog({ maxEventsPerTask: 4, retentionMs: 60_000 });
    for (let i = 1; i <= 40; i++) await log.append('t', big(i, 1000));
    const four = log.bytes;
    // Four events of 1000 characters each, plus their objects.
    expect(four).toBeGreaterThan(4 * 1000);
    expect(four).toBeLessThan(4 * 1500);
    log.seal('t'); // nobody read it: dropped at once
    expect(log.bytes).toBe(0);
  });
});

describe('RequestHandler over a byte-bounded event log', () => {
  it('answers a resume whose events were evicted by bytes with the snapshot (live task) or UnsupportedOperation (finished task)', async () => {
    const eventLog = new InMemoryEventLog({ maxBytes: 3 * 1024 * 1024 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const h = new RequestHandler({
      card: testAgentCard(),
      eventLog,
      executor: {
        async execute(c) {
          c.working();
          for (let i = 0; i < 4; i++) c.artifact({ name: `a${i}`, text: Buffer.alloc(1024 * 1024, `${i}`).toString('latin1') });
          await gate;
          c.complete();
        },
      },
    });
    const ctx = () => callContext('IN-PROCESS', { 'a2a-version': '1.0' });
    const stream = await h.sendStreamingMessage(userSend('hi'), ctx());
    const first = await stream.nextBatch();
    const taskId = (first![0]!.event.payload as { value: { id: string } }).value.id;
    await waitFor(() => eventLog.bytes > 2 * 1024 * 1024, { what: 'the artifacts logged' });
    stream.close();
    // The events after 1 were evicted to make room for the later artifacts: the resume starts with the task.
    const resumed = await h.subscribeToTask({ tenant: '', id: taskId }, ctx(), 1);
    const batch = (await resumed.nextBatch())!;
    expect(batch[0]!.event.payload?.$case).toBe('task');
    expect((batch[0]!.event.payload as { value: { artifacts: unknown[] } }).value.artifacts).toHaveLength(4);
    resumed.close();
    release();
    await waitFor(async () => (await h.getTask({ tenant: '', id: taskId }, ctx())).status?.state === TaskState.TASK_STATE_COMPLETED, {
      what: 'the task completed',
    });
    await expect(h.subscribeToTask({ tenant: '', id: taskId }, ctx(), 1)).rejects.toMatchObject({ code: A2AErrorCode.UnsupportedOperation });
  });
});
