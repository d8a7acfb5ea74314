/**
 * A TypeScript agent module for the A2A executor: a countdown. `defineAgent` types `ctx`
 * (ExecutionContext) and puts the card and the executor on the one default export.
 * The executor loads this file as it is (tsx compiles it on import), serves the card below and runs `execute` per message.
 *
 *   npm start -- --agent-module examples/typescript-agent/agent.ts
 *
 * What it shows:
 * - its own card (name, skills with examples): the inspector offers these prompts;
 * - streaming: one artifact chunk per number, appended to one artifact;
 * - asking for input once: "countdown" without a number leaves the task input-required,
 *   and the answer continues the same task;
 * - cancel: the loop stops when `ctx.signal` aborts, and the `cancel` hook reports where.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { defineAgent } from '@a2a-polyglot/core';
import { TaskState } from '@a2a-polyglot/model';

/** Pause between two numbers: slow enough to watch (and to cancel). */
const TICK_MS = Number(process.env.COUNTDOWN_TICK_MS ?? 200);

/** The number each running countdown last streamed, by task id, for the cancel hook's message. */
const reached = new Map<string, number>();

/** The starting number in `text` ("countdown 5", "5"), if any. */
function startOf(text: string): number | undefined {
  const match = /\d+/.exec(text);
  return match ? Number(match[0]) : undefined;
}

export default defineAgent({
  card: {
    name: 'Countdown Agent',
    description: 'Counts down from a number to liftoff, one streamed chunk per number. Asks for the number when you give none.',
    version: '1.0.0',
    skills: [
      {
        id: 'countdown',
        name: 'Countdown',
        description: 'Streams "N… N-1… … liftoff!" from the number in your message.',
        tags: ['example', 'streaming'],
        examples: ['countdown 5', 'countdown', 'countdown 100'],
      },
    ],
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
  },

  async execute(ctx) {
    const start = startOf(ctx.text);
    if (start === undefined) {
      // Asked once: the answer to this question arrives as a follow-up message of the same task.
      if (ctx.task?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) {
        ctx.reject('That is not a number either; start again with "countdown 5".');
        return;
      }
      ctx.requireInput('From which number shall I count down?');
      return;
    }
    ctx.working(`Counting down from ${start}`);
    let artifactId: string | undefined;
    try {
      for (let n = start; n >= 0; n--) {
        reached.set(ctx.taskId, n);
        artifactId = ctx.artifact({ artifactId, name: 'countdown', text: n === 0 ? 'liftoff!' : `${n}… `, append: n !== start, lastChunk: n === 0 });
        if (n > 0) await sleep(TICK_MS, undefined, { signal: ctx.signal });
      }
    } catch (error) {
      if (ctx.signal.aborted) return; // canceled or shutting down: stop at once, the task is settled elsewhere
      throw error;
    } finally {
      reached.delete(ctx.taskId);
    }
    ctx.complete('Liftoff.');
  },

  /** Called when a client cancels (also while the task waits for input): says where the countdown stopped. */
  cancel(ctx) {
    const at = reached.get(ctx.taskId);
    ctx.setStatus(TaskState.TASK_STATE_CANCELED, at === undefined ? 'Countdown canceled before it started.' : `Countdown stopped at ${at}.`);
  },
});
