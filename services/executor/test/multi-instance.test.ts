/**
 * Two executor processes on one PostgreSQL and one Redis: a client on either instance sees the
 * same tasks and every event of a task running on the other; a cancel on one stops the run on
 * the other; kill -9 of the running instance fails its task after the lease instead of leaving
 * it working, while finished tasks, their artifacts and every event already sent survive.
 */
import { isDeepStrictEqual } from 'node:util';
import { json, partsText, postJson, readSse, userMessage, V1, waitFor, type SseEvent } from './helpers.js';
import { cleanUp, describeWithPostgresAndRedis, POSTGRES_URL, REDIS_URL, uniqueName } from './durable-services.js';
import { killHard, listeningUrl, spawnExecutor, type ExecutorProcess } from './spawn-executor.js';

jest.setTimeout(60_000);

const STOPPED = /instance running this task stopped/;
describeWithPostgresAndRedis('several executor instances on PostgreSQL + Redis', () => {
  const schema = uniqueName('a2a_multi');
  const prefix = schema;
  const processes: ExecutorProcess[] = [];

  function start(instanceId: string): ExecutorProcess {
    const c = spawnExecutor({
      PORT: '0',
      A2A_STORE: 'postgres',
      A2A_POSTGRES_URL: POSTGRES_URL!,
      A2A_POSTGRES_SCHEMA: schema,
      A2A_REDIS_URL: REDIS_URL!,
      A2A_REDIS_PREFIX: prefix,
      A2A_INSTANCE_ID: instanceId,
      A2A_LEASE_MS: '1500',
      A2A_LEASE_SWEEP_MS: '200',
      A2A_DEMO_CHUNK_DELAY_MS: '10',
      A2A_SHUTDOWN_GRACE_MS: '100',
    });
    processes.push(c);
    return c;
  }

  let a: ExecutorProcess;
  let urlA: string;
  let urlB: string;
  beforeAll(async () => {
    a = start('A');
    const b = start('B');
    [urlA, urlB] = await Promise.all([listeningUrl(a), listeningUrl(b)]);
  });

  afterAll(async () => {
    await Promise.all(processes.map(killHard));
    await cleanUp(schema, prefix);
  });

  const get = async (url: string, path: string) => json(await fetch(`${url}/a2a${path}`, { headers: V1 }));
  const subscribe = (url: string, id: string, lastEventId?: string) =>
    fetch(`${url}/a2a/tasks/${id}:subscribe`, {
      method: 'POST',
      headers: { ...V1, Accept: 'text/event-stream', ...(lastEventId && { 'Last-Event-ID': lastEventId }) },
    });
  const startSlow = async (url: string) =>
    (await json(await postJson(`${url}/a2a/message:send`, { message: userMessage('slow'), configuration: { returnImmediately: true } }))).task.id as string;
  /** The agent runs executing in the instance at `url`, from its Prometheus gauge. */
  const runsActive = async (url: string) => {
    const metrics = await (await fetch(`${url}/metrics`)).text();
    const line = /^a2a_task_runs_active (\d+)$/m.exec(metrics);
    if (!line) throw new Error('a2a_task_runs_active missing from /metrics');
    return Number(line[1]);
  };
  const artifacts = (events: SseEvent[]) => events.filter((e) => e.data.artifactUpdate);
  const seqs = (events: SseEvent[]) => events.map((e) => Number(e.id));

  it('streams a task running on A to a client on B, resumes on either, and a cancel on B stops A', async () => {
    const id = await startSlow(urlA);

    // Subscribed on B: the snapshot, then A's events as they happen.
    const first = await readSse(await subscribe(urlB, id), { until: (_e, all) => artifacts(all).length >= 3, timeoutMs: 15_000 });
    expect(first[0]!.data.task.id).toBe(id);
    const firstSeqs = seqs(first);
    for (let i = 1; i < firstSeqs.length; i++) expect(firstSeqs[i]).toBe(firstSeqs[i - 1]! + 1);
    const cut = String(firstSeqs[firstSeqs.length - 1]);

    // Resumed after the cut, once on A and once on B: exactly the next events, same on both.
    const onA = await readSse(await subscribe(urlA, id, cut), { until: (_e, all) => all.length >= 3, timeoutMs: 15_000 });
    const onB = await readSse(await subscribe(urlB, id, cut), { until: (_e, all) => all.length >= 3, timeoutMs: 15_000 });
    expect(seqs(onA)).toEqual([Number(cut) + 1, Number(cut) + 2, Number(cut) + 3]);
    expect(onB.map((e) => [e.id, e.data])).toEqual(onA.map((e) => [e.id, e.data]));

    // A full follower on B (once its snapshot arrived), then a cancel on B.
    let subscribed!: () => void;
    const onSnapshot = new Promise<void>((r) => (subscribed = r));
    const following = subscribe(urlB, id).then((res) => readSse(res, { until: () => (subscribed(), false), timeoutMs: 15_000 }));
    await onSnapshot;
    const canceled = await json(await fetch(`${urlB}/a2a/tasks/${id}:cancel`, { method: 'POST', headers: V1 }));
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    const all = await following;
    const last = all[all.length - 1]!.data;
    expect(last.statusUpdate.status.state).toBe('TASK_STATE_CANCELED');
    const followSeqs = seqs(all);
    expect(new Set(followSeqs).size).toBe(followSeqs.length);
    for (let i = 1; i < followSeqs.length; i++) expect(followSeqs[i]).toBe(followSeqs[i - 1]! + 1);

    // Both instances agree on the canceled task...
    const both = () => Promise.all([get(urlA, `/tasks/${id}`), get(urlB, `/tasks/${id}`)]);
    await waitFor(
      async () => {
        const [x, y] = await both();
        return isDeepStrictEqual(x, y) && x.status.state === 'TASK_STATE_CANCELED';
      },
      { what: 'A and B to agree on the canceled task' },
    );
    const [taskA] = await both();
    // ...and A stopped: its run ended (A's /metrics counts no running agent; the demo agent
    // would otherwise append a tick every 100 ms), and nothing was added to the task.
    await waitFor(async () => (await runsActive(urlA)) === 0, { what: "A's run to end" });
    expect(await get(urlA, `/tasks/${id}`)).toEqual(taskA);
    expect(await get(urlA, '/tasks?pageSize=100&includeArtifacts=true')).toEqual(await get(urlB, '/tasks?pageSize=100&includeArtifacts=true'));
    // The cancel on B ran A's abort path: A no longer counts the run (its demo agent stopped ticking).
    expect(a.stderr).not.toMatch(/uncaught|unhandled/i);
  });

  it('a follow-up on B continues a task left input-required on A', async () => {
    const asked = await json(await postJson(`${urlA}/a2a/message:send`, { message: userMessage('ask') }));
    expect(asked.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const done = await json(await postJson(`${urlB}/a2a/message:send`, { message: userMessage('purple', { taskId: asked.task.id }) }));
    expect(done.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(partsText(done.task.artifacts[0].parts)).toBe('Echo: purple');
    expect(await get(urlA, `/tasks/${asked.task.id}`)).toEqual(done.task);
  });

  it('kill -9 of the running instance: its task fails after the lease; finished tasks and the events sent survive', async () => {
    const finished = await json(await postJson(`${urlA}/a2a/message:send`, { message: userMessage('keep these words') }));
    expect(finished.task.status.state).toBe('TASK_STATE_COMPLETED');
    const id = await startSlow(urlA);

    // A client on B holds the stream while A dies.
    const seen: SseEvent[] = [];
    let ticking!: () => void;
    const ticked = new Promise<void>((r) => (ticking = r));
    const following = subscribe(urlB, id).then((res) =>
      readSse(res, { until: (e, all) => (seen.push(e), artifacts(all).length === 3 && ticking(), false), timeoutMs: 20_000 }),
    );
    await ticked;
    await killHard(a);
    const events = await following;
    const last = events[events.length - 1]!.data;
    expect(last.statusUpdate.status.state).toBe('TASK_STATE_FAILED');
    expect(partsText(last.statusUpdate.status.message.parts)).toMatch(STOPPED);

    // The store: FAILED with the ticks streamed before the kill; the finished task intact.
    const failed = await get(urlB, `/tasks/${id}`);
    expect(failed.status.state).toBe('TASK_STATE_FAILED');
    // What the client saw: the snapshot's artifact (if any ticks were in it), then each chunk.
    const inSnapshot = partsText(events[0]!.data.task.artifacts?.[0]?.parts);
    const ticksSent =
      inSnapshot +
      artifacts(events)
        .map((e) => partsText(e.data.artifactUpdate.artifact.parts))
        .join('');
    expect(partsText(failed.artifacts[0].parts)).toBe(ticksSent);
    expect(await get(urlB, `/tasks/${finished.task.id}`)).toEqual(finished.task);

    // The log: every event a client was sent is still there, then the FAILED one.
    const replay = await readSse(await subscribe(urlB, id, '1'), { timeoutMs: 10_000 });
    const replaySeqs = seqs(replay);
    expect(replaySeqs[0]).toBe(2);
    for (let i = 1; i < replaySeqs.length; i++) expect(replaySeqs[i]).toBe(replaySeqs[i - 1]! + 1);
    const snapshotSeq = Number(events[0]!.id);
    expect(replay.filter((e) => Number(e.id) > snapshotSeq).map((e) => [e.id, e.data])).toEqual(events.slice(1).map((e) => [e.id, e.data]));

    // A restarts under the same id and serves the same tasks.
    a = start('A');
    urlA = await listeningUrl(a);
    expect(await get(urlA, `/tasks/${id}`)).toEqual(failed);
  });
});
