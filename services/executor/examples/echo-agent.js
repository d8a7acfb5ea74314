'use strict';
/**
 * An example agent module for the A2A executor service. Plain CommonJS, so it runs without a
 * build step. Point the service at it with `"agentModule": "./echo-agent.js"` in a config file
 * (see config.json beside this file), `A2A_AGENT_MODULE=...` or `--agent-module ...`.
 *
 * The service accepts, as the module itself or as the export `default`, `executor` or `agent`:
 * an object with `execute(ctx)`, or a factory (function or class) that receives
 * `{ config, logger }` and returns one. This file exports a factory.
 *
 * Inside `execute`, report through `ctx` (see AgentExecutor / ExecutionContext in
 * @a2a-polyglot/core): `ctx.working()`, `ctx.artifact({...})`, `ctx.complete()`, `ctx.fail()`,
 * `ctx.requireInput()`, or answer with a single message via `ctx.reply()`. Returning
 * completes the task; throwing fails it; `ctx.signal` aborts on cancel and on shutdown.
 */

/** Upper-cases the user's text and streams it back word by word. */
function createShoutingEchoAgent({ config, logger }) {
  const greeting = `${config.agent.name} says`;
  return {
    async execute(ctx) {
      logger.debug('example agent got a message', { taskId: ctx.taskId });
      if (ctx.text.trim() === '') {
        // A message (not a task) is the right answer to something we cannot work on.
        ctx.reply('Send me some text and I will shout it back.');
        return;
      }
      ctx.working('Shouting');
      const words = `${greeting}: ${ctx.text.toUpperCase()}`.split(' ');
      let artifactId;
      for (let i = 0; i < words.length; i++) {
        if (ctx.signal.aborted) return; // canceled or shutting down: stop promptly
        artifactId = ctx.artifact({
          artifactId,
          name: 'shout',
          text: i === 0 ? words[i] : ` ${words[i]}`,
          append: i > 0,
          lastChunk: i === words.length - 1,
        });
      }
      ctx.complete();
    },
  };
}

module.exports = { agent: createShoutingEchoAgent };
