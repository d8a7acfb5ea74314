/**
 * The PostgreSQL run queue against a real database (A2A_TEST_POSTGRES_URL; skipped loudly
 * without it, failing under CI): what it stores comes back whole, a claim goes to exactly one
 * of two racing workers (`FOR UPDATE SKIP LOCKED`), a heartbeat keeps a lease, a lease that
 * ran out is claimed again by another worker, a release hands an entry back at once, and an
 * ack removes only its holder's entry.
 * A lease "that ran out" is one granted with a negative duration: already expired by the
 * database clock, so no test waits for time to pass.
 */
import type { QueuedRun } from '@a2a-polyglot/core';
import { createPostgresPool, migratePostgres, PostgresRunQueue } from '@a2a-polyglot/stores/postgres';
import type { Pool } from 'pg';
import { sampleTask } from './fixtures.js';
import { describeWithPostgres, freshSchema, POSTGRES_URL } from './services.js';

const LEASE_MS = 60_000;
/** A lease already over when granted (see the module doc). */
const EXPIRED_MS = -60_000;

const run = (taskId: string, extra: Partial<QueuedRun> = {}): QueuedRun => ({
  agent: 'echo',
  tenant: '',
  taskId,
  owner: 'key:alice',
  principal: { id: 'key:alice', attributes: { scheme: 'apiKey' } },
  message: { ...sampleTask(taskId, '2026-01-01T00:00:00.000Z').history[0]!, taskId, contextId: 'ctx-1' },
  configuration: undefined,
  metadata: { from: 'test', n: 1 },
  extensions: ['urn:x'],
  streaming: true,
  followUp: false,
  version: 1,
  ...extra,
});

describeWithPostgres('PostgreSQL run queue', () => {
  let pool: Pool;
  let other: Pool;
  let drop: () => Promise<void>;
  /** Two instances' queues: one table, two pools (two connections racing). */
  let one: PostgresRunQueue;
  let two: PostgresRunQueue;

  beforeEach(async () => {
    const fresh = await freshSchema('a2a_queue');
    ({ pool, drop } = fresh);
    await migratePostgres(pool, { schema: fresh.schema });
    other = createPostgresPool({ url: POSTGRES_URL!, maxConnections: 4 });
    one = new PostgresRunQueue(pool, { schema: fresh.schema });
    two = new PostgresRunQueue(other, { schema: fresh.schema });
  });

  afterEach(async () => {
    await other.end();
    await drop();
  });

  it('an enqueued run comes back whole from its first claim (attempt 1), and is then held', async () => {
    const queued = run('t-1');
    await one.enqueue(queued);
    const claimed = await two.claim('echo', 'w2', LEASE_MS);
    expect(claimed).toEqual({ id: expect.any(String), run: queued, attempt: 1 });
    // Under a live lease nobody else gets it, not even its own worker again.
    expect(await one.claim('echo', 'w1', LEASE_MS)).toBeUndefined();
    expect(await two.claim('echo', 'w2', LEASE_MS)).toBeUndefined();
  });

  it("claims the oldest entry of the agent asked for, never another agent's", async () => {
    await one.enqueue(run('a-1'));
    await one.enqueue(run('b-1', { agent: 'other' }));
    await one.enqueue(run('a-2'));
    expect((await two.claim('echo', 'w', LEASE_MS))?.run.taskId).toBe('a-1');
    expect((await two.claim('echo', 'w', LEASE_MS))?.run.taskId).toBe('a-2');
    expect(await two.claim('echo', 'w', LEASE_MS)).toBeUndefined();
    expect((await two.claim('other', 'w', LEASE_MS))?.run.taskId).toBe('b-1');
    expect(await two.claim('nobody', 'w', LEASE_MS)).toBeUndefined();
  });

  it('one entry, two workers claiming at once: exactly one gets it', async () => {
    for (let round = 0; round < 10; round++) {
      await one.enqueue(run(`race-${round}`));
      const [a, b] = await Promise.all([one.claim('echo', 'w1', LEASE_MS), two.claim('echo', 'w2', LEASE_MS)]);
      expect([a, b].filter(Boolean).map((c) => c!.run.taskId)).toEqual([`race-${round}`]);
    }
  });

  it('three workers draining many entries concurrently: every entry is claimed once, none twice (SKIP LOCKED)', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `many-${i}`);
    for (const id of ids) await one.enqueue(run(id));
    const drain = async (queue: PostgresRunQueue, worker: string): Promise<string[]> => {
      const got: string[] = [];
      for (let c = await queue.claim('echo', worker, LEASE_MS); c; c = await queue.claim('echo', worker, LEASE_MS)) got.push(c.run.taskId);
      return got;
    };
    const claimed = (await Promise.all([drain(one, 'w1'), drain(two, 'w2'), drain(two, 'w3')])).flat();
    expect(claimed.sort()).toEqual([...ids].sort());
  });

  it('a heartbeat extends the lease: an entry whose lease had run out stays held by its worker', async () => {
    await one.enqueue(run('hb'));
    const claimed = (await one.claim('echo', 'w1', EXPIRED_MS))!;
    expect(await one.heartbeat('w1', [claimed.id], LEASE_MS)).toEqual([]);
    expect(await two.claim('echo', 'w2', LEASE_MS)).toBeUndefined();
  });

  it('an expired lease is claimed by another worker (attempt 2); the first worker then holds nothing', async () => {
    await one.enqueue(run('exp'));
    const first = (await one.claim('echo', 'w1', EXPIRED_MS))!;
    const second = await two.claim('echo', 'w2', LEASE_MS);
    expect(second).toEqual({ id: first.id, run: first.run, attempt: 2 });
    // The stopped worker's heartbeat and ack no longer touch it.
    expect(await one.heartbeat('w1', [first.id], LEASE_MS)).toEqual([first.id]);
    await one.ack(first.id, 'w1');
    expect(await one.holds('', 'exp')).toBe(true);
    await two.ack(first.id, 'w2');
    expect(await one.holds('', 'exp')).toBe(false);
    expect(await one.claim('echo', 'w1', LEASE_MS)).toBeUndefined();
  });

  it('release hands an entry back: claimable at once by another worker, its attempts kept; only by its holder', async () => {
    await one.enqueue(run('back'));
    const first = (await one.claim('echo', 'w1', LEASE_MS))!;
    await two.release(first.id, 'w2');
    expect(await two.claim('echo', 'w2', LEASE_MS)).toBeUndefined();
    await one.release(first.id, 'w1');
    expect(await one.holds('', 'back')).toBe(true);
    expect(await two.claim('echo', 'w2', LEASE_MS)).toEqual({ id: first.id, run: first.run, attempt: 2 });
  });

  it('heartbeat reports the ids its worker does not hold; none for no ids', async () => {
    await one.enqueue(run('mine'));
    await one.enqueue(run('theirs'));
    const mine = (await one.claim('echo', 'w1', LEASE_MS))!;
    const theirs = (await two.claim('echo', 'w2', LEASE_MS))!;
    expect(await one.heartbeat('w1', [mine.id, theirs.id, 'gone'], LEASE_MS)).toEqual([theirs.id, 'gone']);
    expect(await one.heartbeat('w1', [], LEASE_MS)).toEqual([]);
  });

  it('holds: true while the entry waits or is claimed, by tenant and task; false once acked', async () => {
    await one.enqueue(run('held', { tenant: 'acme' }));
    expect(await two.holds('acme', 'held')).toBe(true);
    expect(await two.holds('', 'held')).toBe(false);
    expect(await two.holds('acme', 'other')).toBe(false);
    const claimed = (await two.claim('echo', 'w2', LEASE_MS))!;
    expect(await one.holds('acme', 'held')).toBe(true);
    await two.ack(claimed.id, 'w2');
    expect(await one.holds('acme', 'held')).toBe(false);
  });
});
