/**
 * The sweep of abandoned tasks per agent partition: every mounted agent shares the one durable
 * store, and each agent's sweep must read its own partition only. With more abandoned tasks
 * of another agent than a sweep batch holds (here of agent a, no longer mounted, so nobody
 * sweeps them), a read of everyone's rows filtered afterwards would never reach b's task or
 * the default agent's: both are failed at startup, and a's are left alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@a2a-polyglot/core';
import { TaskState } from '@a2a-polyglot/model';
import { migrateSqlite, openSqlite, SqliteTaskStore } from '@a2a-polyglot/stores/sqlite';
import { stored } from '../../../packages/stores/test/fixtures.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { json, postJson, rpc, waitFor } from './helpers.js';

jest.setTimeout(60_000);

/** More than the sweep's batch of 100. */
const OTHER_AGENT_TASKS = 150;

describe('sweep of abandoned tasks per agent partition', () => {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-agents-sweep-'));
  const path = join(dir, 'tasks.db');
  let gw: RunningExecutor | undefined;
  afterAll(async () => {
    await gw?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("fails b's and the default agent's abandoned tasks behind more than a batch of another agent's", async () => {
    const db = openSqlite(path);
    migrateSqlite(db);
    const store = new SqliteTaskStore(db);
    const working = (id: string, tenant: string) => stored(id, '2026-01-01T00:00:00.000Z', { tenant, state: TaskState.TASK_STATE_WORKING });
    const lease = { owner: 'gone', ttlMs: 1 };
    // Agent a's leases run out first, so they come first in lease order.
    for (let i = 0; i < OTHER_AGENT_TASKS; i++) await store.save(working(`a-${i}`, '@a/'), 0, lease);
    await waitFor(async () => (await store.abandoned({ limit: 1000 })).length === OTHER_AGENT_TASKS, { what: "a's leases to expire" });
    await store.save(working('on-b', '@b/'), 0, lease);
    await store.save(working('on-default', ''), 0, lease);
    await waitFor(async () => (await store.abandoned({ limit: 1000 })).length === OTHER_AGENT_TASKS + 2, { what: 'the last leases to expire' });
    db.close();

    gw = await startExecutor(
      {
        port: 0,
        grpcPort: 0,
        host: '127.0.0.1',
        instanceId: 'gw',
        store: { kind: 'sqlite', path },
        agents: [
          { id: 'b', handler: 'demo' },
          { id: 'c', handler: 'demo' },
        ],
        defaultAgent: 'c',
      },
      { logger: silentLogger },
    );
    const running = gw;
    const state = async (path: string, id: string) => (await json(await postJson(`${running.url}${path}`, rpc('GetTask', { id })))).result?.status.state;
    await waitFor(async () => (await state('/agents/b/a2a/rpc', 'on-b')) === 'TASK_STATE_FAILED', { what: "b's task to be failed" });
    await waitFor(async () => (await state('/a2a/rpc', 'on-default')) === 'TASK_STATE_FAILED', { what: "the default agent's task to be failed" });
    // No mounted agent sees, or swept, agent a's partition.
    expect(await state('/agents/b/a2a/rpc', 'a-0')).toBeUndefined();
    await gw.close();
    gw = undefined;
    const after = openSqlite(path);
    try {
      const left = await new SqliteTaskStore(after).abandoned({ limit: 1000 });
      expect(left.map((t) => t.tenant)).toEqual(Array(OTHER_AGENT_TASKS).fill('@a/'));
      expect(left.every((t) => t.task.status?.state === TaskState.TASK_STATE_WORKING)).toBe(true);
    } finally {
      after.close();
    }
  });
});
