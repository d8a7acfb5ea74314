/**
 * The store contract, run against every implementation (in-memory, SQLite, PostgreSQL): the
 * durable stores must behave exactly like the in-memory reference — same pages, same cursors,
 * same totals, same conflicts — plus leases and strict tenant scoping.
 */
import {
  A2AErrorCode,
  InMemoryPushConfigStore,
  InMemoryTaskStore,
  isVersionConflict,
  type PushConfigStore,
  type TaskQuery,
  type TaskStore,
} from '@a2a-polyglot/core';
import { TaskState } from '@a2a-polyglot/model';
import { waitFor } from '@a2a-polyglot/testing';
import { pushConfig, stored } from './fixtures.js';

export interface StoreUnderTest {
  readonly tasks: TaskStore;
  readonly pushConfigs: PushConfigStore;
  close(): Promise<void>;
}

/** What a store throws for a stale write (see core's versionConflict). */
const CONFLICT = { code: A2AErrorCode.Unavailable, metadata: { conflict: 'version' } };

export function storeContract(open: () => Promise<StoreUnderTest>): void {
  let store: StoreUnderTest;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => {
    await store.close();
  });

  it('round-trips a task exactly (parts, data, metadata, history, owner, version)', async () => {
    const t = stored('t1', '2026-01-01T00:00:00.123Z', { owner: 'alice', version: 7 });
    await store.tasks.save(t);
    expect(await store.tasks.get('', 't1')).toEqual(t);
    expect(await store.tasks.get('', 'nope')).toBeUndefined();
  });

  it('lists exactly like the in-memory store: order, filters, cursors, totals', async () => {
    const reference = new InMemoryTaskStore();
    const states = [TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_FAILED];
    for (let i = 0; i < 23; i++) {
      // Timestamp ties (i % 5) exercise the id tie-break; ids sort differently from insertion.
      const t = stored(`task-${(i * 7) % 23}`, `2026-01-0${1 + (i % 5)}T00:00:00.000Z`, {
        state: states[i % 3],
        contextId: `ctx-${i % 2}`,
        owner: i % 4 === 0 ? 'bob' : undefined,
        tenant: i % 6 === 5 ? 'other' : '',
      });
      await reference.save(t);
      await store.tasks.save(t);
    }
    const queries: Array<Omit<TaskQuery, 'pageToken'>> = [
      { tenant: '', pageSize: 1 },
      { tenant: '', pageSize: 4 },
      { tenant: '', pageSize: 100 },
      { tenant: 'other', pageSize: 2 },
      { tenant: '', pageSize: 3, owner: 'bob' },
      { tenant: '', pageSize: 3, contextId: 'ctx-1' },
      { tenant: '', pageSize: 2, state: TaskState.TASK_STATE_WORKING },
      { tenant: '', pageSize: 5, statusTimestampAfter: '2026-01-03T00:00:00.000Z' },
      { tenant: '', pageSize: 2, contextId: 'ctx-0', state: TaskState.TASK_STATE_COMPLETED, statusTimestampAfter: '2026-01-02T00:00:00.000Z' },
      { tenant: 'nobody', pageSize: 2 },
    ];
    for (const query of queries) {
      let token = '';
      for (let page = 0; page < 30; page++) {
        const expected = await reference.list({ ...query, pageToken: token });
        const actual = await store.tasks.list({ ...query, pageToken: token });
        expect({ query, page, ids: actual.tasks.map((t) => t.task.id), next: actual.nextPageToken, total: actual.totalSize }).toEqual({
          query,
          page,
          ids: expected.tasks.map((t) => t.task.id),
          next: expected.nextPageToken,
          total: expected.totalSize,
        });
        expect(actual.tasks).toEqual(expected.tasks);
        token = expected.nextPageToken;
        if (!token) break;
      }
    }
  });

  it('rejects a malformed cursor with InvalidParams', async () => {
    await expect(store.tasks.list({ tenant: '', pageSize: 1, pageToken: 'garbage!' })).rejects.toMatchObject({ code: A2AErrorCode.InvalidParams });
  });

  it('refuses stale writes instead of overwriting (optimistic concurrency)', async () => {
    await store.tasks.save(stored('t', '2026-01-01T00:00:00.000Z', { version: 1 }), 0);
    const again = store.tasks.save(stored('t', '2026-01-01T00:00:00.000Z', { version: 1 }), 0);
    await expect(again).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
    await again.catch((e: unknown) => expect(isVersionConflict(e)).toBe(true));
    await store.tasks.save(stored('t', '2026-01-01T00:00:01.000Z', { version: 2 }), 1);
    await expect(store.tasks.save(stored('t', '2026-01-01T00:00:02.000Z', { version: 3 }), 1)).rejects.toMatchObject(CONFLICT);
    expect((await store.tasks.get('', 't'))?.version).toBe(2);
  });

  it('lets exactly one of two racing writers win', async () => {
    await store.tasks.save(stored('race', '2026-01-01T00:00:00.000Z', { version: 1 }), 0);
    const results = await Promise.allSettled(
      [TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_COMPLETED].map((state) =>
        store.tasks.save(stored('race', '2026-01-01T00:00:01.000Z', { version: 2, state }), 1),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && isVersionConflict(r.reason))).toHaveLength(1);
  });

  it('scopes every read and write by tenant', async () => {
    await store.tasks.save(stored('same-id', '2026-01-01T00:00:00.000Z', { tenant: 'a', version: 1 }), 0);
    await store.tasks.save(stored('same-id', '2026-01-02T00:00:00.000Z', { tenant: 'b', version: 5, state: TaskState.TASK_STATE_WORKING }), 0);
    expect((await store.tasks.get('a', 'same-id'))?.version).toBe(1);
    expect((await store.tasks.get('b', 'same-id'))?.version).toBe(5);
    expect(await store.tasks.get('', 'same-id')).toBeUndefined();
    // A write in tenant a checks and changes tenant a only.
    await expect(store.tasks.save(stored('same-id', '2026-01-03T00:00:00.000Z', { tenant: 'a', version: 6 }), 5)).rejects.toMatchObject(CONFLICT);
    await store.tasks.save(stored('same-id', '2026-01-03T00:00:00.000Z', { tenant: 'a', version: 2 }), 1);
    expect((await store.tasks.get('b', 'same-id'))?.task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect((await store.tasks.list({ tenant: 'a', pageSize: 10, pageToken: '' })).tasks.map((t) => [t.tenant, t.version])).toEqual([['a', 2]]);
    await store.tasks.delete('a', 'same-id');
    expect(await store.tasks.get('a', 'same-id')).toBeUndefined();
    expect(await store.tasks.get('b', 'same-id')).toBeDefined();
  });

  it('holds leases: one owner at a time, released by a lease-less write, claimable once expired', async () => {
    const tasks = store.tasks;
    await tasks.save(stored('l', '2026-01-01T00:00:00.000Z', { version: 1, state: TaskState.TASK_STATE_WORKING }), 0, { owner: 'A', ttlMs: 60_000 });
    // B cannot claim it while A's lease holds, even with the right version.
    await expect(tasks.save(stored('l', '2026-01-01T00:00:00.000Z', { version: 1 }), 1, { owner: 'B', ttlMs: 60_000 })).rejects.toMatchObject(CONFLICT);
    // A renews it; an unknown task is reported lost.
    expect(
      await tasks.renewLeases!(
        'A',
        [
          { tenant: '', taskId: 'l' },
          { tenant: '', taskId: 'ghost' },
        ],
        60_000,
      ),
    ).toEqual([{ tenant: '', taskId: 'ghost' }]);
    expect(await tasks.renewLeases!('B', [{ tenant: '', taskId: 'l' }], 60_000)).toEqual([{ tenant: '', taskId: 'l' }]);
    // Nothing is abandoned while the lease holds, except for its own owner at startup.
    expect(await tasks.abandoned!({ limit: 10 })).toEqual([]);
    expect((await tasks.abandoned!({ owner: 'A', limit: 10 })).map((t) => t.task.id)).toEqual(['l']);
    // A lease-less write (a cancel elsewhere) goes through and releases the lease...
    await tasks.save(stored('l', '2026-01-01T00:00:01.000Z', { version: 2, state: TaskState.TASK_STATE_CANCELED }), 1);
    expect(await tasks.renewLeases!('A', [{ tenant: '', taskId: 'l' }], 60_000)).toEqual([{ tenant: '', taskId: 'l' }]);
    expect(await tasks.abandoned!({ owner: 'A', limit: 10 })).toEqual([]);
    // ...and an expired lease is abandoned and claimable by another owner.
    await tasks.save(stored('e', '2026-01-01T00:00:00.000Z', { version: 1, state: TaskState.TASK_STATE_WORKING }), 0, { owner: 'A', ttlMs: 1 });
    // The store's clock decides when 1 ms has passed (the database's, for PostgreSQL).
    await waitFor(async () => (await tasks.abandoned!({ limit: 10 })).length > 0, { what: 'the lease to expire' });
    expect((await tasks.abandoned!({ limit: 10 })).map((t) => t.task.id)).toEqual(['e']);
    await tasks.save(stored('e', '2026-01-01T00:00:00.000Z', { version: 1, state: TaskState.TASK_STATE_WORKING }), 1, { owner: 'B', ttlMs: 60_000 });
    expect(await tasks.abandoned!({ limit: 10 })).toEqual([]);
  });

  it('sweeps one tenant partition, limited after the partition (a shared store: no starvation)', async () => {
    const tasks = store.tasks;
    const working = (id: string, tenant: string) => stored(id, '2026-01-01T00:00:00.000Z', { tenant, state: TaskState.TASK_STATE_WORKING });
    // Oldest first: the other agent's expired leases come before the default agent's.
    const expiring: Array<[string, string]> = [
      ['a1', '@a/1'],
      ['a2', '@a/2'],
      ['a3', '@a/'],
      ['b1', '@b/t'],
      ['d1', ''],
      ['d2', '@@x'],
      ['d3', 'plain'],
    ];
    for (const [id, tenant] of expiring) await tasks.save(working(id, tenant), 0, { owner: 'A', ttlMs: 1 });
    await tasks.save(working('held', '@a/1'), 0, { owner: 'A', ttlMs: 60_000 });
    await waitFor(async () => (await tasks.abandoned!({ limit: 100 })).length === expiring.length, { what: 'the leases to expire' });
    const ids = async (query: Parameters<NonNullable<TaskStore['abandoned']>>[0]) => (await tasks.abandoned!(query)).map((t) => t.task.id).sort();
    const defaultAgent = { exceptPrefix: '@', keepPrefix: '@@' };
    expect(await ids({ limit: 100, tenants: { prefix: '@a/' } })).toEqual(['a1', 'a2', 'a3']);
    expect(await ids({ limit: 1, tenants: { prefix: '@b/' } })).toEqual(['b1']);
    expect(await ids({ limit: 100, tenants: defaultAgent })).toEqual(['d1', 'd2', 'd3']);
    // The limit counts the partition's tasks only: four older ones of other agents do not hide them.
    const one = await tasks.abandoned!({ limit: 1, tenants: defaultAgent });
    expect(one.map((t) => t.tenant)).toEqual([expect.stringMatching(/^(?!@(?!@))/)]);
    expect(await ids({ limit: 100, tenants: { exceptPrefix: '@' } })).toEqual(['d1', 'd3']);
    expect(await ids({ limit: 100, tenants: { prefix: '@', exceptPrefix: '@@' } })).toEqual(['a1', 'a2', 'a3', 'b1']);
    // The startup sweep (its own leases too) keeps to the partition as well.
    expect(await ids({ owner: 'A', limit: 100, tenants: { prefix: '@a/' } })).toEqual(['a1', 'a2', 'a3', 'held']);
    expect(await ids({ owner: 'A', limit: 100, tenants: { prefix: '@b/' } })).toEqual(['b1']);
    expect(await ids({ owner: 'A', limit: 100, tenants: defaultAgent })).toEqual(['d1', 'd2', 'd3']);
  });

  it('keeps push configs per tenant and task, in registration order', async () => {
    const configs = store.pushConfigs;
    const reference = new InMemoryPushConfigStore();
    for (const s of [configs, reference]) {
      await s.put('', pushConfig('t1', 'c1'));
      await s.put('', pushConfig('t1', 'c2'));
      await s.put('', pushConfig('t1', 'c1', 'https://example.com/replaced'));
      await s.put('x', pushConfig('t1', 'c3'));
    }
    expect(await configs.list('', 't1')).toEqual(await reference.list('', 't1'));
    expect((await configs.list('', 't1')).map((c) => [c.id, c.url])).toEqual([
      ['c1', 'https://example.com/replaced'],
      ['c2', 'https://example.com/hook'],
    ]);
    expect(await configs.get('', 't1', 'c2')).toEqual(pushConfig('t1', 'c2'));
    expect(await configs.get('x', 't1', 'c2')).toBeUndefined();
    expect(await configs.get('', 't1', 'c3')).toBeUndefined();
    await configs.delete('', 't1', 'c1');
    await configs.delete('', 't1', 'missing');
    expect((await configs.list('', 't1')).map((c) => c.id)).toEqual(['c2']);
    await configs.deleteAll('', 't1');
    expect(await configs.list('', 't1')).toEqual([]);
    expect((await configs.list('x', 't1')).map((c) => c.id)).toEqual(['c3']);
  });

  it('remembers the generation each push config was registered in (absent: 1.0)', async () => {
    const configs = store.pushConfigs;
    await configs.put('', { ...pushConfig('g', 'v03'), protocolVersion: '0.3' });
    await configs.put('', { ...pushConfig('g', 'v1'), protocolVersion: '1.0' });
    await configs.put('', pushConfig('g', 'before'));
    const generations = (await configs.list('', 'g')).map((c) => [c.id, c.protocolVersion ?? '1.0']);
    expect(generations).toEqual([
      ['v03', '0.3'],
      ['v1', '1.0'],
      ['before', '1.0'],
    ]);
    expect((await configs.get('', 'g', 'v03'))?.protocolVersion).toBe('0.3');
    // Replacing a config takes the generation of the new registration.
    await configs.put('', { ...pushConfig('g', 'v03'), protocolVersion: '1.0' });
    expect((await configs.get('', 'g', 'v03'))?.protocolVersion ?? '1.0').toBe('1.0');
  });
}
