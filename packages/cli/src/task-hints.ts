import type { CommandContext } from './context.js';

/**
 * Tells how to answer a task that waits for input. Printed when `a2a` cannot ask (no
 * terminal, Ctrl-C at the prompt), so the task is not left waiting with nobody knowing how
 * to continue it.
 */
export function writeNeedsInputHint(ctx: CommandContext, taskId: string): void {
  ctx.io.stderr.write(`a2a: task ${taskId} needs input; answer with: ${ctx.invocation} send ${ctx.positionals[0]} '<answer>' --task-id ${taskId}\n`);
}

/**
 * Ctrl-C stops watching, not the task: the agent goes on with it. Says so, with the full id
 * and the commands that follow or cancel it, so an interrupted run never loses its task.
 * Without an id (a blocking send interrupted before the answer), points at `a2a list`.
 * Commands are printed the way the user ran the CLI ({@link CommandContext.invocation}).
 */
export function writeInterruptedHint(ctx: CommandContext, taskId: string | undefined): void {
  const url = ctx.positionals[0];
  if (!taskId) {
    ctx.io.stderr.write(`a2a: interrupted; a task the agent started keeps running (${ctx.invocation} list ${url} shows it)\n`);
    return;
  }
  ctx.io.stderr.write(
    `a2a: interrupted; task ${taskId} keeps running on the agent\n  follow it: ${ctx.invocation} subscribe ${url} ${taskId}\n  cancel it: ${ctx.invocation} cancel ${url} ${taskId}\n`,
  );
}
