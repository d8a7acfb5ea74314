/**
 * Idempotent sends across processes: replayed sends (each messageId sent several times, on
 * whichever instance) create exactly one task per messageId, on one executor and on two
 * executors sharing PostgreSQL + Redis; every copy of a send answers the same task. The
 * claim is PostgreSQL's unique key, not a process map, so the second instance sees the first's.
 *
 * Sizes: A2A_IDEMPOTENCY_SENDS sends over A2A_IDEMPOTENCY_IDS ids (default 100 / 10; the full
 * run of issue 29 is 1000 / 100).
 */
import { Client } from 'pg';
import { json, postJson, userMessage } from './helpers.js';
import { cleanUp, describeWithPostgresAndRedis, POSTGRES_URL, REDIS_URL, uniqueName } from './durable-services.js';
import { killHard, listeningUrl, spawnExecutor, type ExecutorProcess } from './spawn-executor.js';

jest.setTimeout(120_000);

const SENDS = Number(process.env.A2A_IDEMPOTENCY_SENDS ?? 100);
const IDS = Number(process.env.A2A_IDEMPOTENCY_IDS ?? 10);
/** Sends in flight at once (a client retrying in parallel, without flooding a shared CI machine). */
const CONCURRENCY = 20;

describeWithPostgresAndRedis('idempotent sends on PostgreSQL + Redis', () => {
  const schema = uniqueName('a2a_idem');
  const processes: ExecutorProcess[] = [];
  let urls: string[] = [];

  function start(instanceId: string): ExecutorProcess {
    const c = spawnExecutor({
      PORT: '0',
      A2A_STORE: 'postgres',
      A2A_POSTGRES_URL: POSTGRES_URL!,
      A2A_POSTGRES_SCHEMA: schema,
      A2A_REDIS_URL: REDIS_URL!,
      A2A_REDIS_PREFIX: schema,
      A2A_INSTANCE_ID: instanceId,
      A2A_DEMO_CHUNK_DELAY_MS: '1',
      A2A_SHUTDOWN_GRACE_MS: '100',
    });
    processes.push(c);
    return c;
  }

  beforeAll(async () => {
    const a = start('A');
    const b = start('B');
    urls = await Promise.all([listeningUrl(a), listeningUrl(b)]);
  });

  afterAll(async () => {
    await Promise.all(processes.map(killHard));
    await cleanUp(schema, schema);
  });

  /** The task states the blocking sends of the last {@link replay} answered with. */
  const states = new Set<string>();

  async function tasksInContext(contextId: string): Promise<number> {
    const pg = new Client({ connectionString: POSTGRES_URL });
    await pg.connect();
    try {
      const { rows } = await pg.query(`SELECT count(*)::int AS n FROM "${schema}".a2a_tasks WHERE context_id = $1`, [contextId]);
      return rows[0].n as number;
    } finally {
      await pg.end();
    }
  }

  /** Sends SENDS messages over IDS messageIds to `targets` in turn; resolves with each id's task ids and every answer's state. */
  async function replay(targets: readonly string[], contextId: string): Promise<Map<string, Set<string>>> {
    const answered = new Map<string, Set<string>>();
    states.clear();
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < SENDS; i = next++) {
        const messageId = `${contextId}-${i % IDS}`;
        const url = targets[i % targets.length]!;
        const res = await postJson(`${url}/a2a/message:send`, { message: userMessage('hello', { messageId, contextId }) });
        const body = await json(res);
        if (res.status !== 200) throw new Error(`send ${i} answered ${res.status}: ${JSON.stringify(body)}`);
        const ids = answered.get(messageId) ?? new Set<string>();
        ids.add(body.task.id);
        states.add(body.task.status.state);
        answered.set(messageId, ids);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return answered;
  }

  it(`creates exactly ${IDS} tasks for ${SENDS} replayed sends on one instance`, async () => {
    const contextId = uniqueName('one');
    const answered = await replay([urls[0]!], contextId);
    expect(answered.size).toBe(IDS);
    // Every copy is a blocking send: it answers once the task ended, like the first.
    expect([...states]).toEqual(['TASK_STATE_COMPLETED']);
    for (const ids of answered.values()) expect(ids.size).toBe(1);
    expect(await tasksInContext(contextId)).toBe(IDS);
  });

  it(`creates exactly ${IDS} tasks for ${SENDS} replayed sends spread over two instances`, async () => {
    const contextId = uniqueName('two');
    const answered = await replay(urls, contextId);
    expect(answered.size).toBe(IDS);
    expect([...states]).toEqual(['TASK_STATE_COMPLETED']);
    for (const ids of answered.values()) expect(ids.size).toBe(1);
    expect(await tasksInContext(contextId)).toBe(IDS);
  });

  it('refuses the same messageId with another body on the other instance', async () => {
    const messageId = uniqueName('clash');
    const first = await postJson(`${urls[0]}/a2a/message:send`, { message: userMessage('hello', { messageId }) });
    expect(first.status).toBe(200);
    const other = await postJson(`${urls[1]}/a2a/message:send`, { message: userMessage('something else', { messageId }) });
    expect(other.status).toBe(400);
    expect(JSON.stringify(await json(other))).toMatch(/already sent with a different message/);
  });
});
