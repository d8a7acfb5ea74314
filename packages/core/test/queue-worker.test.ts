/**
 * The worker side of the run queue ({@link QueueWorker}) over an in-memory fake queue: it never
 * runs more than `concurrency` claims at once, renews the leases it holds, reports a run that
 * throws (and acks it), leaves an entry whose run said "keep" to its lease, releases one handed
 * back, wakes at once on `notify`, and on `stop` claims nothing more while the runs it holds go
 * on to their end.
 */
import { recordingLogger, waitFor } from '@a2a-polyglot/testing';
import { QueueWorker } from '../src/queue-worker.js';
import type { ClaimedRun, ClaimEnd, QueueOptions } from '../src/run-queue.js';
import { FakeRunQueue, queuedRun } from './fake-run-queue.js';

/** A run the test ends: `finish('ack')` acks it, `'keep'` leaves it to its lease, `'release'` hands it back, `fail` throws. */
interface HeldRun {
  readonly claimed: ClaimedRun;
  finish(end: ClaimEnd): void;
  fail(error: Error): void;
}

/** A worker on `queue` whose runs park until the test ends them; `running` counts them. */
function startWorker(queue: FakeRunQueue, options: Partial<QueueOptions> = {}, leaseMs = 60_000) {
  const logger = recordingLogger();
  const held: HeldRun[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const worker = new QueueWorker({
    options: { queue, agent: 'echo', pollMs: 10, ...options },
    worker: 'w1',
    leaseMs,
    logger,
    execute: (claimed) =>
      new Promise<ClaimEnd>((resolve, reject) => {
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        const end = () => void running--;
        held.push({ claimed, finish: (claimEnd) => (end(), resolve(claimEnd)), fail: (error) => (end(), reject(error)) });
      }),
  });
  return { worker, logger, held, running: () => running, mostAtOnce: () => mostAtOnce };
}

describe('QueueWorker', () => {
  let stopLater: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stopLater) await stop();
    stopLater = [];
  });
  const started = (w: ReturnType<typeof startWorker>) => {
    stopLater.push(async () => {
      await w.worker.stop();
      for (const h of w.held) h.finish('ack');
      await w.worker.idle();
    });
    return w;
  };

  it('runs at most `concurrency` claims at once, and claims the next as one ends', async () => {
    const queue = new FakeRunQueue();
    for (let i = 0; i < 5; i++) await queue.enqueue(queuedRun(`t${i}`));
    const w = started(startWorker(queue, { concurrency: 2 }));
    await waitFor(() => w.held.length === 2, { what: 'two runs' });
    expect(w.running()).toBe(2);
    for (let i = 0; i < 5; i++) {
      w.held[i]!.finish('ack');
      await waitFor(() => w.held.length === Math.min(5, i + 3), { what: 'the next run once one ended' });
    }
    await waitFor(() => w.running() === 0 && queue.entries.length === 0, { what: 'every run acked' });
    expect(w.held.map((h) => h.claimed.run.taskId)).toEqual(['t0', 't1', 't2', 't3', 't4']);
    expect(w.mostAtOnce()).toBe(2);
    expect(queue.acks).toHaveLength(5);
  });

  it('renews the leases it holds with the lease length, and warns about claims it lost', async () => {
    const queue = new FakeRunQueue();
    await queue.enqueue(queuedRun('a'));
    await queue.enqueue(queuedRun('b'));
    const w = started(startWorker(queue, {}, 30));
    await waitFor(() => w.held.length === 2, { what: 'two runs' });
    const ids = w.held.map((h) => h.claimed.id);
    await waitFor(() => queue.heartbeats.some((b) => b.ids.length === 2), { what: 'a heartbeat of both claims' });
    expect(queue.heartbeats.at(-1)).toEqual({ worker: 'w1', ids: expect.arrayContaining(ids), leaseMs: 30 });
    // Another worker took 'a' (its lease ran out meanwhile): the next heartbeat says so.
    queue.expire(ids[0]!);
    queue.entries[0]!.claimedBy = 'w2';
    await waitFor(() => w.logger.messages('warn').some((m) => m.includes('claims were lost')), { what: 'the lost-claim warning' });
    expect(w.logger.lines.find((l) => l.msg.includes('claims were lost'))?.fields.entries).toEqual([ids[0]]);
  });

  it('a run that throws is logged with its task and acked; a run that says "keep" is left to its lease', async () => {
    const queue = new FakeRunQueue();
    await queue.enqueue(queuedRun('boom'));
    await queue.enqueue(queuedRun('later'));
    const w = started(startWorker(queue));
    await waitFor(() => w.held.length === 2, { what: 'two runs' });
    w.held[0]!.fail(new Error('agent exploded'));
    w.held[1]!.finish('keep');
    await waitFor(() => w.logger.messages('error').includes('a queued run failed') && w.running() === 0, { what: 'both ended' });
    const line = w.logger.lines.find((l) => l.msg === 'a queued run failed');
    expect(line?.fields).toMatchObject({ taskId: 'boom', err: expect.objectContaining({ message: 'agent exploded' }) });
    await waitFor(() => queue.acks.length === 1, { what: 'the ack' });
    expect(queue.acks).toEqual([w.held[0]!.claimed.id]);
    // Not acked: still in the queue, held until its lease runs out.
    expect(queue.entries.map((e) => [e.run.taskId, e.claimedBy])).toEqual([['later', 'w1']]);
  });

  it('a run handed back is released: claimable again at once, its attempt counted', async () => {
    const queue = new FakeRunQueue();
    await queue.enqueue(queuedRun('back'));
    const w = started(startWorker(queue, { concurrency: 1 }));
    await waitFor(() => w.held.length === 1, { what: 'the run' });
    w.held[0]!.finish('release');
    // Released, then claimed again by the same (still running) worker: attempt 2, a resumption.
    await waitFor(() => w.held.length === 2, { what: 'the claim after the release' });
    expect(queue.releases).toEqual([w.held[0]!.claimed.id]);
    expect(queue.acks).toEqual([]);
    expect(w.held[1]!.claimed).toMatchObject({ id: w.held[0]!.claimed.id, attempt: 2 });
  });

  it('a failed claim is logged and the worker keeps looking', async () => {
    const queue = new FakeRunQueue();
    queue.failNextClaim = new Error('database away');
    await queue.enqueue(queuedRun('t'));
    const w = started(startWorker(queue));
    await waitFor(() => w.held.length === 1, { what: 'the run after the failed claim' });
    expect(w.logger.messages('warn')).toContain('claiming from the run queue failed');
  });

  it('notify wakes an idle worker at once, long before its next poll', async () => {
    const queue = new FakeRunQueue();
    const w = started(startWorker(queue, { pollMs: 60_000 }));
    await waitFor(() => queue.claims.length === 1, { what: 'the first, empty claim' });
    await queue.enqueue(queuedRun('t'));
    w.worker.notify();
    await waitFor(() => w.held.length === 1, { timeoutMs: 2000, what: 'the run after notify' });
  });

  it('stop: claims nothing more and resolves while its runs go on; idle resolves once they ended and were acked', async () => {
    const queue = new FakeRunQueue();
    await queue.enqueue(queuedRun('running'));
    const w = startWorker(queue);
    await waitFor(() => w.held.length === 1, { what: 'the run' });
    await w.worker.stop();
    const claimsAtStop = queue.claims.length;
    await queue.enqueue(queuedRun('after'));
    w.worker.notify();
    let idle = false;
    const idling = w.worker.idle().then(() => (idle = true));
    expect(w.running()).toBe(1);
    w.held[0]!.finish('ack');
    await idling;
    expect(idle).toBe(true);
    expect(queue.acks).toEqual([w.held[0]!.claimed.id]);
    expect(queue.claims.length).toBe(claimsAtStop);
    expect(queue.entries.map((e) => [e.run.taskId, e.claimedBy])).toEqual([['after', undefined]]);
  });

  it('stop during a claim: the entry it brings back is not run, and left to its lease', async () => {
    const queue = new FakeRunQueue();
    let release!: () => void;
    queue.claimGate = new Promise<void>((r) => (release = r));
    await queue.enqueue(queuedRun('t'));
    const w = startWorker(queue);
    await waitFor(() => queue.claims.length === 1, { what: 'a claim under way' });
    const stopping = w.worker.stop();
    release();
    await stopping;
    await w.worker.idle();
    expect(w.held).toEqual([]);
    expect(queue.acks).toEqual([]);
    expect(queue.entries[0]?.claimedBy).toBe('w1');
  });
});
