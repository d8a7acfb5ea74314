/**
 * The experimental A2A 1.1 draft on two executor processes sharing PostgreSQL and Redis: of two
 * follow-ups sent at once, one to each instance, naming the same `ifGenerationMatch`, exactly
 * one is accepted and the other is refused with TASK_GENERATION_MISMATCH (the store's version
 * check and lease arbitrate, whichever instance each lands on); and a GetTask long poll served
 * by one instance wakes when the task moves on the other.
 */
import { json, postJson, userMessage } from './helpers.js';
import { cleanUp, describeWithPostgresAndRedis, POSTGRES_URL, REDIS_URL, uniqueName } from './durable-services.js';
import { killHard, listeningUrl, spawnExecutor, type ExecutorProcess } from './spawn-executor.js';

jest.setTimeout(180_000);

/** Pairs of concurrent conditional follow-ups, and how many pairs run at the same time. */
const PAIRS = 100;
const PAIRS_AT_ONCE = 10;

const V11 = { 'A2A-Version': '1.1' };

describeWithPostgresAndRedis('A2A 1.1 generations on two instances (PostgreSQL + Redis)', () => {
  const schema = uniqueName('a2a_gen11');
  const prefix = schema;
  const processes: ExecutorProcess[] = [];
  let urlA: string;
  let urlB: string;

  function start(instanceId: string): ExecutorProcess {
    const c = spawnExecutor({
      PORT: '0',
      GRPC_PORT: 'off',
      A2A_STORE: 'postgres',
      A2A_POSTGRES_URL: POSTGRES_URL!,
      A2A_POSTGRES_SCHEMA: schema,
      A2A_REDIS_URL: REDIS_URL!,
      A2A_REDIS_PREFIX: prefix,
      A2A_INSTANCE_ID: instanceId,
      A2A_DEMO_CHUNK_DELAY_MS: '0',
      A2A_SHUTDOWN_GRACE_MS: '100',
      A2A_PROTOCOL_EXPERIMENTAL11: 'true',
      // Far above the test's own timeout: a poll that was not woken fails the test.
      A2A_LONG_POLL_MAX_MS: '600000',
    });
    processes.push(c);
    return c;
  }

  beforeAll(async () => {
    const a = start('A');
    const b = start('B');
    [urlA, urlB] = await Promise.all([listeningUrl(a), listeningUrl(b)]);
  });

  afterAll(async () => {
    await Promise.all(processes.map(killHard));
    await cleanUp(schema, prefix);
  });

  const send = (url: string, body: unknown) => postJson(`${url}/a2a/message:send`, body, V11);

  /** One pair: a task left INPUT_REQUIRED on A, then one follow-up to A and one to B, sent together. */
  async function pair(i: number): Promise<{ accepted: number; refused: Array<{ status: number; reason: string; current: string }> }> {
    const asked = await json(await send(urlA, { message: userMessage('ask') }));
    expect(asked.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const generation: string = asked.task.generation;
    expect(generation).toBe('2');
    const followUp = () => ({ message: userMessage(`answer ${i}`, { taskId: asked.task.id }), configuration: { ifGenerationMatch: generation } });
    const answers = await Promise.all([send(urlA, followUp()), send(urlB, followUp())]);
    const bodies = await Promise.all(answers.map(json));
    let accepted = 0;
    const refused: Array<{ status: number; reason: string; current: string }> = [];
    for (const [k, res] of answers.entries()) {
      const body = bodies[k];
      if (res.status === 200) {
        expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
        accepted++;
      } else {
        const info = body.error?.details?.find((d: { reason?: string }) => d.reason);
        refused.push({ status: res.status, reason: info?.reason, current: info?.metadata?.currentGeneration });
      }
    }
    return { accepted, refused };
  }

  it(`${PAIRS} pairs of concurrent follow-ups with the same ifGenerationMatch, one to each instance: exactly one of each pair is accepted`, async () => {
    const outcomes: Awaited<ReturnType<typeof pair>>[] = [];
    for (let first = 0; first < PAIRS; first += PAIRS_AT_ONCE) {
      const batch = Array.from({ length: Math.min(PAIRS_AT_ONCE, PAIRS - first) }, (_, k) => pair(first + k));
      outcomes.push(...(await Promise.all(batch)));
    }
    expect(outcomes).toHaveLength(PAIRS);
    expect(outcomes.map((o) => o.accepted)).toEqual(Array(PAIRS).fill(1));
    for (const o of outcomes) expect(o.refused).toEqual([{ status: 409, reason: 'TASK_GENERATION_MISMATCH', current: expect.any(String) }]);
  });

  it('a long poll on B wakes when the task moves on A (well before the 10 min bound)', async () => {
    const started = await json(await send(urlA, { message: userMessage('slow'), configuration: { returnImmediately: true } }));
    const id: string = started.task.id;
    const now = await json(await fetch(`${urlB}/a2a/tasks/${id}`, { headers: V11 }));
    const polled = await json(await fetch(`${urlB}/a2a/tasks/${id}?currentGeneration=${now.generation}`, { headers: V11 }));
    expect(Number(polled.generation)).toBeGreaterThan(Number(now.generation));
    expect(polled.status.state).toBe('TASK_STATE_WORKING');
    await fetch(`${urlA}/a2a/tasks/${id}:cancel`, { method: 'POST', headers: V11 });
  }, 30_000);
});
