import { request as httpRequest } from 'node:http';
import { readStamp, wallClockUs } from '../agents/agent-mode.js';
import type { RunContext } from '../orchestrator/context.js';
import { portOf, startServerProcess } from '../orchestrator/server-process.js';
import { BASE_PATH } from '../requests.js';
import type { LongPollResult } from '../results.js';
import type { OursStorage } from '../servers/ours-server.js';
import { LOOPBACK } from '../servers/started-server.js';
import { summarizeLatencies } from '../stats.js';
import { requireTarget } from '../targets.js';

/** The agent waits this long before its first chunk, so the first poll is waiting by then. */
const FIRST_CHUNK_HEADROOM_MS = 150;

/** Settings of the server: ours, serving the experimental A2A 1.1 draft. */
const SERVES_11: OursStorage = { protocol: { experimental11: true } };

/**
 * The long-poll scenario (A2A 1.1 draft, protocol issue item 6): how soon a GetTask long poll
 * (`?currentGeneration=N`) answers once the task's next event exists. Ours REST with
 * `protocol.experimental11` on; for each of `LONGPOLL_TASKS` tasks, SendMessage with
 * `returnImmediately` starts the `stamp` agent (K chunks `LONGPOLL_PAUSE_MS` apart, each
 * carrying its wall-clock emit time), and the client follows the task with long polls only:
 * each answer's generation is the next poll's `currentGeneration`. Wake latency = the time the
 * answer was read − the emit time of the chunk it shows, for answers exactly one event ahead
 * (a poll that found the task further on came late and is counted, not measured). One
 * unrecorded task goes first. Server and client read the same clock.
 */
export async function runLongPoll(ctx: RunContext): Promise<LongPollResult> {
  const cfg = ctx.config;
  const target = requireTarget('ours-rest');
  const empty = { targetId: target.id, tasks: cfg.longPollTasks, k: cfg.longPollK, pauseMs: cfg.longPollPauseMs };
  let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  try {
    server = await startServerProcess(ctx, 'ours', SERVES_11);
    const port = portOf(server, target.port);
    const samples: number[] = [];
    let late = 0;
    for (let t = -1; t < cfg.longPollTasks; t++) {
      const followed = await followByLongPolls(port, `stamp ${cfg.longPollK} ${cfg.longPollPauseMs} ${FIRST_CHUNK_HEADROOM_MS}`);
      if (t < 0) continue;
      samples.push(...followed.wakesUs);
      late += followed.late;
    }
    const summary = summarizeLatencies(samples);
    ctx.log(`  longpoll: ${samples.length} wakes, p50 ${summary.p50.toFixed(3)} ms, p99 ${summary.p99.toFixed(3)} ms, ${late} late`);
    if (late > 0) ctx.notice(`longpoll: ${late} polls found the task more than one event ahead (not measured)`);
    return { ...empty, wakes: samples.length, late, p50Ms: summary.p50, p99Ms: summary.p99, maxMs: summary.max };
  } catch (error) {
    const failure = (error as Error).message;
    ctx.notice(`longpoll: ${failure}`);
    return { ...empty, wakes: 0, late: 0, p50Ms: Number.NaN, p99Ms: Number.NaN, maxMs: Number.NaN, failure };
  } finally {
    await server?.stop();
  }
}

interface TaskJson {
  readonly id?: string;
  readonly generation?: string;
  readonly status?: { readonly state?: string };
  readonly artifacts?: ReadonlyArray<{ readonly parts?: ReadonlyArray<{ readonly text?: string }> }>;
}

/** Starts one stamped task and follows it with long polls to its end; the wake latencies (µs) and the late polls. */
async function followByLongPolls(port: number, text: string): Promise<{ wakesUs: number[]; late: number }> {
  const body = JSON.stringify({
    message: { messageId: `lp-${Date.now()}-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] },
    configuration: { returnImmediately: true },
  });
  const sent = (await call(port, 'POST', `${BASE_PATH}/message:send`, body)).json as { task?: TaskJson };
  const id = sent.task?.id;
  let generation = Number(sent.task?.generation);
  if (!id || !Number.isInteger(generation)) throw new Error(`SendMessage answered no task with a generation: ${JSON.stringify(sent).slice(0, 200)}`);
  const wakesUs: number[] = [];
  let late = 0;
  for (;;) {
    const { json, receivedUs } = await call(port, 'GET', `${BASE_PATH}/tasks/${encodeURIComponent(id)}?currentGeneration=${generation}&historyLength=0`);
    const task = json as TaskJson;
    const next = Number(task.generation);
    const state = task.status?.state;
    if (!Number.isInteger(next)) throw new Error(`GetTask answered no generation: ${JSON.stringify(task).slice(0, 200)}`);
    if (next === generation + 1 && state === 'TASK_STATE_WORKING') {
      const stamp = lastStamp(task);
      if (stamp !== undefined) wakesUs.push(receivedUs - stamp);
    } else if (next > generation + 1 && state === 'TASK_STATE_WORKING') late++; // (the completion right after the last chunk is no late poll)
    generation = next;
    if (state !== 'TASK_STATE_WORKING' && state !== 'TASK_STATE_SUBMITTED') return { wakesUs, late };
  }
}

/** The emit time of the newest chunk the task shows (the last part of its artifact). */
function lastStamp(task: TaskJson): number | undefined {
  const parts = task.artifacts?.[0]?.parts ?? [];
  const text = parts[parts.length - 1]?.text;
  return text === undefined ? undefined : readStamp(text);
}

/** One A2A 1.1 REST call: the parsed answer and when its last byte was read (µs, wall clock). */
function call(port: number, method: 'GET' | 'POST', path: string, body?: string): Promise<{ json: unknown; receivedUs: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: LOOPBACK, port, path, method, headers: { 'content-type': 'application/json', 'a2a-version': '1.1' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const receivedUs = wallClockUs();
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) return reject(new Error(`${method} ${path} answered ${res.statusCode}: ${text.slice(0, 200)}`));
        try {
          resolve({ json: JSON.parse(text), receivedUs });
        } catch (error) {
          reject(error);
        }
      });
      res.on('error', reject);
    });
    req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}
