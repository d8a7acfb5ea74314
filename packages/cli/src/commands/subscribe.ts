import { connect } from '../connect.js';
import type { CommandContext } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { StatusLine } from '../render.js';
import { AnswerWriter, conclude, follow } from './follow.js';
import { resumeNotice } from './send.js';

/** `a2a subscribe URL TASK_ID`: the task's current state, then its events to the end. */
export async function subscribeCommand(ctx: CommandContext): Promise<ExitCode> {
  const client = await connect(ctx.positionals[0]!, ctx.common, ctx.signal);
  ctx.usedBinding(client.binding);
  const status = new StatusLine(ctx.io, !ctx.common.json);
  const answer = new AnswerWriter(ctx, status);
  try {
    status.set(`subscribing to task ${ctx.positionals[1]!.slice(0, 8)}`, false);
    const stream = client.subscribeToTask({ id: ctx.positionals[1]! }, { signal: ctx.signal, onResume: resumeNotice(status) });
    const outcome = await follow(ctx, stream, status, answer, true).catch((error: unknown) => {
      status.stop();
      answer.finish();
      throw error;
    });
    const code = conclude(ctx, outcome, status, answer);
    if (code === EXIT.inputRequired && !ctx.common.json) {
      ctx.io.stderr.write(`a2a: task ${outcome.taskId} needs input; answer with: a2a send ${ctx.positionals[0]} '<answer>' --task-id ${outcome.taskId}\n`);
    }
    return code;
  } finally {
    status.stop();
    await client.close();
  }
}
