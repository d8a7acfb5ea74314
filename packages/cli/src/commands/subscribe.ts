import { A2AError, A2AErrorCode, isTerminal } from '@a2a-polyglot/core';
import type { Client, TaskStream } from '@a2a-polyglot/client';
import { StreamResponse, TaskState, type Task } from '@a2a-polyglot/model';
import { connect } from '../connect.js';
import { type CommandContext, positional, writeJsonLine } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { StatusLine } from '../render.js';
import { writeInterruptedHint, writeNeedsInputHint } from '../task-hints.js';
import { AnswerWriter, conclude, follow, showTask, type Outcome } from './follow.js';
import { resumeNotice } from './send.js';

/**
 * `a2a subscribe URL TASK_ID`: the task's current state, then its events to the end. A task
 * that already ended cannot be subscribed to (the agent refuses); it is shown as it ended
 * instead, as if the stream had delivered only its final state.
 */
export async function subscribeCommand(ctx: CommandContext): Promise<ExitCode> {
  const client = await connect(positional(ctx, 0, 'URL'), ctx.common, ctx.signal);
  ctx.usedBinding(client.binding);
  const taskId = positional(ctx, 1, 'TASK_ID');
  const status = new StatusLine(ctx.io, !ctx.common.json);
  const answer = new AnswerWriter(ctx, status);
  try {
    status.set(`subscribing to task ${taskId}`, false);
    let outcome: Outcome;
    try {
      const stream = client.subscribeToTask({ id: taskId }, { signal: ctx.signal, onResume: resumeNotice(status) });
      outcome = await followOrFinal(ctx, client, stream, status, answer, taskId);
    } catch (error) {
      status.stop();
      answer.finish();
      if (!ctx.signal.aborted) throw error;
      writeInterruptedHint(ctx, taskId);
      return EXIT.interrupted;
    }
    const code = conclude(ctx, outcome, status, answer);
    if (code === EXIT.inputRequired && !ctx.common.json) writeNeedsInputHint(ctx, outcome.taskId ?? taskId);
    return code;
  } finally {
    status.stop();
    await client.close();
  }
}

/** Follows the stream; when the agent refuses it because the task ended, reads the final task. */
async function followOrFinal(
  ctx: CommandContext,
  client: Client,
  stream: TaskStream,
  status: StatusLine,
  answer: AnswerWriter,
  taskId: string,
): Promise<Outcome> {
  try {
    return await follow(ctx, stream, status, answer, { showSnapshot: true, knownTaskId: taskId });
  } catch (error) {
    if (!(error instanceof A2AError) || error.code !== A2AErrorCode.UnsupportedOperation) throw error;
    const task = await client.getTask({ id: taskId }, { signal: ctx.signal });
    if (!isTerminal(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)) throw error;
    return showFinal(ctx, task, answer);
  }
}

/** A finished task shown the way its stream would have ended: the answer, then its final state. */
function showFinal(ctx: CommandContext, task: Task, answer: AnswerWriter): Outcome {
  if (ctx.common.json) writeJsonLine(ctx, { seq: null, event: StreamResponse.toJSON({ payload: { $case: 'task', value: task } }) });
  return showTask(ctx, task, answer);
}
