/**
 * The embedded durable store across a kill -9: `A2A_STORE=sqlite` keeps finished tasks and
 * their artifacts, and the restarted instance (same instance id) fails at once the task it was
 * running instead of leaving it working forever; a send replayed after the restart answers the
 * task it created before (idempotent sends are kept in the file).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, partsText, postJson, userMessage, V1, waitFor } from './helpers.js';
import { killHard, listeningUrl, spawnExecutor, type ExecutorProcess } from './spawn-executor.js';

jest.setTimeout(60_000);

describe('SQLite store across a kill -9', () => {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-sqlite-restart-'));
  const processes: ExecutorProcess[] = [];
  const start = () => {
    const c = spawnExecutor({ PORT: '0', A2A_STORE: 'sqlite', A2A_SQLITE_PATH: join(dir, 'tasks.db'), A2A_INSTANCE_ID: 'solo', A2A_DEMO_CHUNK_DELAY_MS: '10' });
    processes.push(c);
    return c;
  };
  afterAll(async () => {
    await Promise.all(processes.map(killHard));
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps finished tasks and fails the interrupted run at restart', async () => {
    const first = start();
    let url = await listeningUrl(first);
    const sent = userMessage('survive the crash');
    const done = await json(await postJson(`${url}/a2a/message:send`, { message: sent }));
    expect(done.task.status.state).toBe('TASK_STATE_COMPLETED');
    const slow = await json(await postJson(`${url}/a2a/message:send`, { message: userMessage('slow'), configuration: { returnImmediately: true } }));
    const get = async (id: string) => json(await fetch(`${url}/a2a/tasks/${id}`, { headers: V1 }));
    // Killed once the store holds two ticks (GetTask reads the store).
    await waitFor(async () => /^tick 1 tick 2/.test(partsText((await get(slow.task.id)).artifacts?.[0]?.parts)), {
      timeoutMs: 10_000,
      what: 'two persisted ticks',
    });
    await killHard(first);

    const second = start();
    url = await listeningUrl(second);
    expect(await get(done.task.id)).toEqual(done.task);
    expect(partsText(done.task.artifacts[0].parts)).toBe('Echo: survive the crash');
    const failed = await get(slow.task.id);
    expect(failed.status.state).toBe('TASK_STATE_FAILED');
    expect(partsText(failed.status.message.parts)).toMatch(/instance running this task stopped/);
    expect(partsText(failed.artifacts[0].parts)).toMatch(/^tick 1 tick 2/);
    const list = await json(await fetch(`${url}/a2a/tasks?pageSize=10`, { headers: V1 }));
    expect(list.tasks.map((t: { id: string }) => t.id).sort()).toEqual([done.task.id, slow.task.id].sort());
    expect(second.stdout).toMatch(/recoveredTasks/);
    // Idempotent sends live in the file too: the send replayed after the restart answers its task.
    const replayed = await json(await postJson(`${url}/a2a/message:send`, { message: sent }));
    expect(replayed.task).toEqual(done.task);
    const afterReplay = await json(await fetch(`${url}/a2a/tasks?pageSize=10`, { headers: V1 }));
    expect(afterReplay.tasks).toHaveLength(2);
  });
});
