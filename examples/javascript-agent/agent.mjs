/**
 * A plain JavaScript (ES module) agent module for the A2A executor: it reverses your words,
 * streamed one word per chunk. No build step:
 *
 *   npm start -- --agent-module examples/javascript-agent/agent.mjs
 *
 * The module exports its card beside the agent (`export const card`), the other way to
 * describe itself besides `defineAgent({ card, ... })`. "reverse" alone asks for the words
 * once (the answer continues the task); `ctx.signal` stops the stream when the task is canceled.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Pause between two words (tests set it low or high through the environment). */
const TICK_MS = Number(process.env.REVERSER_TICK_MS ?? 100);

/** The card the executor serves for this agent (config keys, when set, override its fields). */
export const card = {
  name: 'Word Reverser',
  description: 'Sends your words back in reverse order, one streamed word at a time.',
  skills: [
    {
      id: 'reverse',
      name: 'Reverse words',
      description: 'Reverses the order of the words in your message.',
      tags: ['example'],
      examples: ['reverse one two three', 'reverse'],
    },
  ],
  capabilities: { pushNotifications: false },
};

/** The agent: an object with `execute(ctx)` (see AgentExecutor in @a2a-polyglot/core). */
export default {
  async execute(ctx) {
    // A follow-up (the answer to the question below) is all words; a new message may lead with "reverse".
    const text = ctx.task ? ctx.text : ctx.text.replace(/^\s*reverse\b/i, '');
    const words = text.trim().split(/\s+/).filter(Boolean).reverse();
    if (words.length === 0) {
      ctx.requireInput('Which words shall I reverse?');
      return;
    }
    let artifactId;
    for (const [i, word] of words.entries()) {
      if (ctx.signal.aborted) return; // canceled: stop, the core has settled the task
      artifactId = ctx.artifact({ artifactId, name: 'reversed', text: i === 0 ? word : ` ${word}`, append: i > 0, lastChunk: i === words.length - 1 });
      if (i < words.length - 1) await sleep(TICK_MS, undefined, { signal: ctx.signal }).catch(() => undefined);
    }
    if (!ctx.signal.aborted) ctx.complete();
  },
};
