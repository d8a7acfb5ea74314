import { A2AErrorCode, taskLogKey } from '@a2a-polyglot/core';
import type { StreamResponse } from '@a2a-polyglot/model';
import { RedisEventLog, RedisTaskSignals, type RedisConnections } from '@a2a-polyglot/stores/redis';
import { waitFor } from '@a2a-polyglot/testing';
import { deleteKeys, describeWithRedis, redisConnections, uniqueName } from './services.js';

/** Subscribers Redis itself counts on `channel`: the condition "the subscription is in place". */
async function subscribers(redis: RedisConnections, channel: string): Promise<number> {
  const [, count] = (await redis.commands.pubsub('NUMSUB', channel)) as [string, number];
  return Number(count);
}

function ev(n: number): StreamResponse {
  return {
    payload: {
      $case: 'statusUpdate',
      value: {
        taskId: 't',
        contextId: 'c',
        status: { state: 2, message: undefined, timestamp: `2026-01-01T00:00:00.${String(n).padStart(3, '0')}Z` },
        metadata: { n },
      },
    },
  };
}

describeWithRedis('RedisEventLog', () => {
  let a: RedisConnections;
  let b: RedisConnections;
  let prefix: string;
  beforeAll(async () => {
    [a, b] = await Promise.all([redisConnections(), redisConnections()]);
  });
  beforeEach(() => {
    prefix = uniqueName('a2a_test');
  });
  afterEach(async () => {
    await deleteKeys(a, prefix);
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  it('numbers, reads after a cursor and round-trips events exactly', async () => {
    const log = new RedisEventLog(a, { prefix });
    expect(await log.append('k', ev(1))).toBe(1);
    expect(await log.append('k', ev(2))).toBe(2);
    expect(await log.append('k', ev(3), 3)).toBe(3);
    expect(await log.readAfter('k', 0)).toEqual({
      events: [
        { seq: 1, event: ev(1) },
        { seq: 2, event: ev(2) },
        { seq: 3, event: ev(3) },
      ],
      gap: false,
    });
    expect((await log.readAfter('k', 1, 1)).events.map((e) => e.seq)).toEqual([2]);
    expect(await log.readAfter('k', 3)).toEqual({ events: [], gap: false });
    expect(await log.lastSeq('k')).toBe(3);
    expect(await log.lastSeq('missing')).toBe(0);
    expect(await log.readAfter('missing', 5)).toEqual({ events: [], gap: false });
  });

  it('drops an append whose seq is taken (no duplicate) and reports a hole as a gap', async () => {
    const log = new RedisEventLog(a, { prefix });
    await log.append('k', ev(1), 1);
    expect(await log.append('k', ev(99), 1)).toBe(0);
    await log.append('k', ev(3), 3); // seq 2 was lost by a racing writer
    expect((await log.readAfter('k', 0)).events.map((e) => e.seq)).toEqual([1]);
    expect(await log.readAfter('k', 1)).toEqual({ events: [], gap: true });
    expect((await log.readAfter('k', 2)).events.map((e) => e.seq)).toEqual([3]);
  });

  it('trims to the per-task bound; a reader behind it gets a gap', async () => {
    const log = new RedisEventLog(a, { prefix, maxEventsPerTask: 10 });
    for (let i = 1; i <= 400; i++) await log.append('k', ev(i % 1000));
    expect(await log.lastSeq('k')).toBe(400);
    expect((await log.readAfter('k', 0)).gap).toBe(true);
    expect((await log.readAfter('k', 395)).events.map((e) => e.seq)).toEqual([396, 397, 398, 399, 400]);
    expect(await a.commands.xlen(`${prefix}:log:k`)).toBeLessThan(400);
  });

  it('trims by bytes too: a task of large events holds about maxBytesPerTask, a reader behind gets a gap, the newest event stays', async () => {
    const MB = 1024 * 1024;
    const large = (n: number, bytes = MB): StreamResponse => {
      const e = ev(n);
      if (e.payload?.$case === 'statusUpdate') e.payload.value.metadata = { n, text: Buffer.alloc(bytes, String(n % 10)).toString('latin1') };
      return e;
    };
    const log = new RedisEventLog(a, { prefix, maxBytesPerTask: 4 * MB });
    for (let i = 1; i <= 20; i++) await log.append('k', large(i));
    const bytes = Number(await a.commands.call('MEMORY', 'USAGE', `${prefix}:log:k`, 'SAMPLES', '0'));
    expect(bytes).toBeLessThanOrEqual(4 * MB);
    expect(await log.lastSeq('k')).toBe(20);
    expect((await log.readAfter('k', 0)).gap).toBe(true);
    expect((await log.readAfter('k', 17)).events.map((e) => e.seq)).toEqual([18, 19, 20]);
    // One event larger than the bound: it stays alone, so the log still knows its last seq.
    await log.append('k', large(21, 5 * MB));
    expect(await a.commands.xlen(`${prefix}:log:k`)).toBe(1);
    expect(await log.append('k', ev(5), 5)).toBe(0);
    expect((await log.readAfter('k', 20)).events.map((e) => e.seq)).toEqual([21]);
  });

  it('keeps tenants apart: the same task id in two tenants is two logs', async () => {
    const log = new RedisEventLog(a, { prefix });
    await log.append(taskLogKey('t1', 'x'), ev(1));
    expect(await log.lastSeq(taskLogKey('t2', 'x'))).toBe(0);
    expect(await log.lastSeq(taskLogKey('t1', 'x'))).toBe(1);
  });

  it('wakes a reader on another instance at once, and on abort', async () => {
    const writer = new RedisEventLog(a, { prefix });
    const reader = new RedisEventLog(b, { prefix, pollMs: 60_000 });
    await writer.append('k', ev(1));
    const controller = new AbortController();
    const woken = reader.waitFor('k', 1, controller.signal);
    // The reader polls only every 60 s: the wake-up must come through its subscription, so
    // append once Redis has it (not after a guessed delay).
    await waitFor(async () => (await subscribers(a, `${prefix}:wake:k`)) === 1, { what: 'the wake-up subscription' });
    const started = Date.now();
    await writer.append('k', ev(2));
    await woken;
    expect(Date.now() - started).toBeLessThan(5000);
    const aborted = reader.waitFor('k', 2, controller.signal);
    controller.abort();
    await aborted;
    // An event already there resolves at once.
    await reader.waitFor('k', 0, new AbortController().signal);
    // Every subscription is let go of; a waiter that ended before Redis confirmed its SUBSCRIBE
    // lets go once the confirmation arrives, so this is eventual.
    await waitFor(() => b.subscriber.channelCount === 0, { what: 'the wake-up subscriptions to be released' });
  });

  it('expires a sealed log after its retention', async () => {
    const log = new RedisEventLog(a, { prefix, retentionMs: 50_000, idleTtlMs: 3_600_000 });
    await log.append('k', ev(1));
    expect(await a.commands.pttl(`${prefix}:log:k`)).toBeGreaterThan(50_000);
    log.seal('k');
    // seal() sets the retention in the background.
    await waitFor(async () => (await a.commands.pttl(`${prefix}:log:k`)) <= 50_000, { what: 'the retention TTL' });
    expect(await a.commands.pttl(`${prefix}:log:k`)).toBeGreaterThan(0);
  });

  it('fails with Unavailable when Redis is unreachable', async () => {
    const log = new RedisEventLog(a, { prefix });
    const closed = await redisConnections();
    await closed.close();
    const dead = new RedisEventLog(closed, { prefix });
    await expect(dead.readAfter('k', 0)).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
    await expect(dead.append('k', ev(1))).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
    expect(await log.lastSeq('k')).toBe(0);
  });
});

describeWithRedis('RedisTaskSignals', () => {
  it('delivers a signal to every instance', async () => {
    const [a, b] = await Promise.all([redisConnections(), redisConnections()]);
    const prefix = uniqueName('a2a_test');
    try {
      const received: unknown[] = [];
      const stop = new RedisTaskSignals(b, { prefix }).subscribe((s) => received.push(s));
      // Subscription confirmation is asynchronous: publish once Redis has it.
      await waitFor(async () => (await subscribers(a, `${prefix}:signals`)) === 1, { what: 'the signal subscription' });
      const sender = new RedisTaskSignals(a, { prefix });
      await sender.publish({ kind: 'canceled', tenant: 't', taskId: 'x', origin: 'A' });
      await sender.publish({ kind: 'cancel-requested', tenant: 't', taskId: 'y', origin: 'A' });
      await waitFor(() => received.length > 1, { what: 'the signals' });
      expect(received).toEqual([
        { kind: 'canceled', tenant: 't', taskId: 'x', origin: 'A' },
        { kind: 'cancel-requested', tenant: 't', taskId: 'y', origin: 'A' },
      ]);
      stop();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
