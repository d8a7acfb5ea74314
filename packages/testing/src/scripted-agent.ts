import { TaskState } from '@a2a-polyglot/model';
import type { Gates } from './gates.js';

/**
 * The members of the core's `ExecutionContext` the scripted agent uses, typed here by shape
 * so this package stays free of the core (the core's tests import this package). The core's
 * context satisfies it, so {@link scriptedAgent} is an `AgentExecutor` wherever one is wanted.
 */
export interface ScriptedAgentContext {
  readonly text: string;
  readonly task: { readonly status?: { readonly state: TaskState } | undefined } | undefined;
  readonly signal: AbortSignal;
  reply(message: string): void;
  working(message?: string): void;
  artifact(chunk: { readonly name: string; readonly text: string; readonly lastChunk: boolean }): unknown;
  complete(message?: string): void;
  requireInput(message: string): void;
}

/** What {@link scriptedAgent} returns: structurally a core `AgentExecutor`. */
export interface ScriptedAgent {
  execute(ctx: ScriptedAgentContext): Promise<void>;
}

/** The status text of the `input` command (the question the agent asks). */
export const SCRIPTED_INPUT_QUESTION = 'which city?';
/** The message a failing agent (`fail`) throws: tests check that no binding leaks it. */
export const SCRIPTED_FAILURE_DETAIL = 'secret internal detail';

/**
 * The one scripted agent of the binding and client tests: the first word of the message text
 * is the command, so a test says what the agent does in the message it sends (one vocabulary
 * for every package, instead of a copy per package that drifts).
 *
 * | Text | Does |
 * | --- | --- |
 * | `echo X` | a direct Message `echo X` (no task) |
 * | `steps N [K]` | working, N artifacts `chunk-<i>` (`chunk <i>`), completed `done`; with gate K the artifacts after the first wait for K |
 * | `gate K [N]` | working `waiting for K`, waits for gate K (or cancel), N (default 1) artifacts `after-<i>` (`after <i>`), completed `done` |
 * | `burst N K` | working, N artifacts `chunk-<i>` at once, waits for gate K (or cancel), completed `done` |
 * | `flood N SIZE` | working, N artifacts `flood-<i>` of SIZE characters, completed `flooded` |
 * | `input` | input-required ({@link SCRIPTED_INPUT_QUESTION}); the follow-up `X` streams artifact `answer` (`got X`) and completes with `got X` |
 * | `fail` | throws {@link SCRIPTED_FAILURE_DETAIL} (the core fails the task) |
 * | `hang` | working `hanging` until canceled |
 * | anything else | working, artifact `answer` with `echo: <text>`, completed |
 *
 * Gates are named and latched ({@link Gates}): each test picks its own names.
 */
export function scriptedAgent(gates: Gates): ScriptedAgent {
  return {
    async execute(ctx) {
      if (ctx.task?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) {
        ctx.artifact({ name: 'answer', text: `got ${ctx.text}`, lastChunk: true });
        return ctx.complete(`got ${ctx.text}`);
      }
      const [command = '', ...args] = ctx.text.trim().split(/\s+/);
      const count = (i: number, fallback: number) => Number(args[i] ?? fallback);
      switch (command) {
        case 'echo':
          return ctx.reply(`echo ${args.join(' ')}`.trim());
        case 'steps':
          ctx.working('working');
          for (let i = 0; i < count(0, 1); i++) {
            if (i === 1 && args[1] !== undefined) await gates.wait(args[1], ctx.signal);
            if (ctx.signal.aborted) return;
            ctx.artifact({ name: `chunk-${i}`, text: `chunk ${i}`, lastChunk: true });
          }
          return ctx.complete('done');
        case 'gate':
          ctx.working(`waiting for ${args[0]}`);
          await gates.wait(args[0] ?? '', ctx.signal);
          if (ctx.signal.aborted) return;
          for (let i = 0; i < count(1, 1); i++) ctx.artifact({ name: `after-${i}`, text: `after ${i}`, lastChunk: true });
          return ctx.complete('done');
        case 'burst':
          ctx.working('working');
          for (let i = 0; i < count(0, 1); i++) ctx.artifact({ name: `chunk-${i}`, text: `chunk ${i}`, lastChunk: true });
          await gates.wait(args[1] ?? '', ctx.signal);
          if (ctx.signal.aborted) return;
          return ctx.complete('done');
        case 'flood': {
          ctx.working('flooding');
          const text = 'x'.repeat(count(1, 100));
          for (let i = 0; i < count(0, 10); i++) ctx.artifact({ name: `flood-${i}`, text, lastChunk: true });
          return ctx.complete('flooded');
        }
        case 'input':
          return ctx.requireInput(SCRIPTED_INPUT_QUESTION);
        case 'fail':
          throw new Error(SCRIPTED_FAILURE_DETAIL);
        case 'hang':
          ctx.working('hanging');
          if (!ctx.signal.aborted) await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
          return;
        default:
          ctx.working();
          ctx.artifact({ name: 'answer', text: `echo: ${ctx.text}`, lastChunk: true });
          return ctx.complete();
      }
    },
  };
}
