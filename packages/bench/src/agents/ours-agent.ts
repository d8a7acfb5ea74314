import type { AgentExecutor } from '@a2a-polyglot/core';
import { chunkText, parseAgentMode, RESULT_TEXT, sleep, stampText } from './agent-mode.js';

/**
 * The benchmark agent on our core. It reports exactly what the SDK agent publishes (see
 * `sdk-agent.ts`), so both servers do the same protocol work per request.
 */
export function createOursBenchAgent(): AgentExecutor {
  return {
    async execute(ctx) {
      const mode = parseAgentMode(ctx.text);
      switch (mode.kind) {
        case 'message':
          ctx.reply(RESULT_TEXT);
          return;
        case 'task':
          ctx.submit();
          ctx.working();
          ctx.artifact({ name: 'result', text: RESULT_TEXT, lastChunk: true });
          ctx.complete();
          return;
        case 'stream': {
          ctx.submit();
          ctx.working();
          let artifactId: string | undefined;
          if (mode.stampDelayMs) await sleep(mode.stampDelayMs);
          for (let i = 0; i < mode.k; i++) {
            if (mode.pauseMs > 0) await sleep(mode.pauseMs);
            if (ctx.signal.aborted) return;
            artifactId = ctx.artifact({
              artifactId,
              name: 'result',
              text: mode.stampDelayMs !== undefined ? stampText() : chunkText(i),
              append: i > 0,
              lastChunk: i === mode.k - 1,
            });
          }
          ctx.complete();
          return;
        }
        case 'idle':
          ctx.submit();
          ctx.working();
          await new Promise<void>((resolve) => {
            if (ctx.signal.aborted) return resolve();
            ctx.signal.addEventListener('abort', () => resolve(), { once: true });
          });
          return;
      }
    },
  };
}
