import type { StreamResponse } from '@a2a-polyglot/model';
import { followTask, InMemoryEventLog } from '../src/index.js';

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
