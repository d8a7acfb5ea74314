/**
 * The experimental A2A 1.1 draft on two executor processes sharing PostgreSQL and Redis: of two
 * follow-ups sent at once, one to each instance, naming the same `ifGenerationMatch`, exactly
 * one is accepted and the other is refused with TASK_GENERATION_MISMATCH (the store's version
 * check and lease arbitrate, whichever instance each lands on); and a GetTask long poll served
 * by one instance wakes when the task moves on the other.
 *
 * The agent asks for input again after every message, so a follow-up that loses the race finds
 * the task interrupted again a moment later: without the condition it would be accepted then
 * (a lost update: both answers land on the task), which is what the condition prevents.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, partsText, postJson, userMessage } from './helpers.js';
import { cleanUp, describeWithPostgresAndRedis, POSTGRES_URL, REDIS_URL, uniqueName } from './durable-services.js';
import { killHard, listeningUrl, spawnExecutor, type ExecutorProcess } from './spawn-executor.js';

jest.setTimeout(180_000);

/** Pairs of concurrent conditional follow-ups, and how many pairs run at the same time. */
const PAIRS = 100;
const PAIRS_AT_ONCE = 10;

const V11 = { 'A2A-Version': '1.1' };

/** An agent module that works, echoes the message as an artifact and asks again, every time. */
const ASKING_AGENT = `'use strict';
module.exports = {
  async execute(ctx) {
    ctx.working();
    ctx.artifact({ text: ctx.text });
    ctx.requireInput('next?');
  },
};
`;

describeWithPostgresAndRedis('A2A 1.1 generations on two instances (PostgreSQL + Redis)', () => {
  const schema = uniqueName('a2a_gen11');
  const prefix = schema;
  const processes: ExecutorProcess[] = [];
  const agentDir = mkdtempSync(join(tmpdir(), 'a2a-gen11-'));
  const agentModule = join(agentDir, 'asking-agent.js');
  writeFileSync(agentModule, ASKING_AGENT);
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
      A2A_AGENT_MODULE: agentModule,
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
    rmSync(agentDir, { recursive: true, force: true });
  });

  const send = (url: string, body: unknown) => postJson(`${url}/a2a/message:send`, body, V11);

  /**
   * One pair: a task left INPUT_REQUIRED on A, then one follow-up to A and one to B, sent
   * together, naming the generation A answered. Also reads back which answers the task holds.
   */
  async function pair(i: number): Promise<{ accepted: number; refused: Array<{ status: number; reason: string; current: string }>; answersHeld: number }> {
    const asked = await json(await send(urlA, { message: userMessage('question') }));
    expect(asked.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const generation: string = asked.task.generation;
    expect(generation).toBe('4'); // created, working, artifact, input-required
    const followUp = (to: string) => ({
      message: userMessage(`answer ${i} via ${to}`, { taskId: asked.task.id }),
      configuration: { ifGenerationMatch: generation },
    });
    const answers = await Promise.all([send(urlA, followUp('A')), send(urlB, followUp('B'))]);
    const bodies = await Promise.all(answers.map(json));
    let accepted = 0;
    const refused: Array<{ status: number; reason: string; current: string }> = [];
    for (const [k, res] of answers.entries()) {
      const body = bodies[k];
      if (res.status === 200) {
        expect(body.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
        accepted++;
      } else {
        const info = body.error?.details?.find((d: { reason?: string }) => d.reason);
        refused.push({ status: res.status, reason: info?.reason, current: info?.metadata?.currentGeneration });
      }
    }
    const task = await json(await fetch(`${urlB}/a2a/tasks/${asked.task.id}`, { headers: V11 }));
    const answersHeld = task.artifacts.filter((a: { parts: Array<{ text?: string }> }) => partsText(a.parts).startsWith(`answer ${i} `)).length;
    return { accepted, refused, answersHeld };
  }

  it(`${PAIRS} pairs of concurrent follow-ups with the same ifGenerationMatch, one to each instance: exactly one of each pair is accepted`, async () => {
    const outcomes: Awaited<ReturnType<typeof pair>>[] = [];
    for (let first = 0; first < PAIRS; first += PAIRS_AT_ONCE) {
      const batch = Array.from({ length: Math.min(PAIRS_AT_ONCE, PAIRS - first) }, (_, k) => pair(first + k));
      outcomes.push(...(await Promise.all(batch)));
    }
    expect(outcomes).toHaveLength(PAIRS);
    expect(outcomes.map((o) => o.accepted)).toEqual(Array(PAIRS).fill(1));
    expect(outcomes.map((o) => o.answersHeld)).toEqual(Array(PAIRS).fill(1));
    for (const o of outcomes) expect(o.refused).toEqual([{ status: 409, reason: 'TASK_GENERATION_MISMATCH', current: expect.any(String) }]);
  });

  it('a long poll on B wakes when a follow-up on A moves the task (well before the 10 min bound)', async () => {
    const asked = await json(await send(urlA, { message: userMessage('question') }));
    const id: string = asked.task.id;
    const polled = fetch(`${urlB}/a2a/tasks/${id}?currentGeneration=${asked.task.generation}`, { headers: V11 }).then(json);
    // The poll is open on B (or the follow-up lands first: then it answers at once, as it must).
    const moved = await json(await send(urlA, { message: userMessage('go on', { taskId: id }) }));
    const answer = await polled;
    expect(Number(answer.generation)).toBeGreaterThan(Number(asked.task.generation));
    expect(Number(answer.generation)).toBeLessThanOrEqual(Number(moved.task.generation));
  }, 30_000);
});
