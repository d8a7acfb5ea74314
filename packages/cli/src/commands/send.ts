import { partsText, textMessage, type Client, type ResumeInfo, type TaskStream } from '@a2a-polyglot/client';
import { SendMessageResponse } from '@a2a-polyglot/model';
import { connect } from '../connect.js';
import { type CommandContext, positional, writeJsonLine } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { interactive } from '../io.js';
import { LineReader } from '../line-reader.js';
import { StatusLine } from '../render.js';
import { writeInterruptedHint, writeNeedsInputHint } from '../task-hints.js';
import { AnswerWriter, conclude, follow, showTask, type Outcome } from './follow.js';

/** Shows a resubscribe on the status line (or as a log line off a terminal). */
export function resumeNotice(status: StatusLine): (info: ResumeInfo) => void {
  return (info) =>
    status.set(`connection lost (${info.cause.message}); resuming task ${info.taskId} after event ${info.afterSeq ?? '-'}, attempt ${info.attempt}`);
}

/**
 * `a2a send URL TEXT`: one message, streamed by default. When the agent asks for input the
 * next `--input` value answers, else a terminal prompt, else the question is printed and the
 * command exits with {@link EXIT.inputRequired}.
 */
export async function sendCommand(ctx: CommandContext): Promise<ExitCode> {
  const client = await connect(positional(ctx, 0, 'URL'), ctx.common, ctx.signal);
  ctx.usedBinding(client.binding);
  const inputs = [...((ctx.values.input as string[] | undefined) ?? [])];
  const streaming = ctx.values['no-stream'] !== true && client.card.capabilities?.streaming !== false;
  let reader: LineReader | undefined;
  let text = positional(ctx, 1, 'TEXT');
  let taskId = ctx.values['task-id'] as string | undefined;
  let contextId = ctx.values['context-id'] as string | undefined;
  try {
    for (;;) {
      const status = new StatusLine(ctx.io, !ctx.common.json);
      const answer = new AnswerWriter(ctx, status);
      status.set(`sending to ${client.card.name} over ${client.binding}`, false);
      let outcome: Outcome;
      let stream: TaskStream | undefined;
      try {
        if (streaming) {
          stream = client.sendStreamingMessage({ message: textMessage(text, { taskId, contextId }) }, { signal: ctx.signal, onResume: resumeNotice(status) });
          outcome = await follow(ctx, stream, status, answer, { followUp: Boolean(taskId), knownTaskId: taskId });
        } else {
          outcome = await blockingTurn(ctx, client, text, taskId, contextId, answer);
        }
      } catch (error) {
        status.stop();
        answer.finish(); // the error line starts on a line of its own
        if (!ctx.signal.aborted) throw error;
        writeInterruptedHint(ctx, stream?.taskId ?? taskId);
        return EXIT.interrupted;
      } finally {
        status.stop();
      }
      const code = conclude(ctx, outcome, status, answer);
      if (code !== EXIT.inputRequired || !outcome.taskId) return code;
      let next = inputs.shift();
      if (next === undefined && interactive(ctx.io) && !ctx.common.json) {
        reader ??= new LineReader(ctx.io);
        next = await reader.ask('> ', ctx.signal);
      }
      if (ctx.signal.aborted || next === undefined) {
        writeNeedsInputHint(ctx, outcome.taskId);
        return ctx.signal.aborted ? EXIT.interrupted : EXIT.inputRequired;
      }
      text = next;
      taskId = outcome.taskId;
      contextId = outcome.contextId;
    }
  } finally {
    reader?.close();
    await client.close();
  }
}

async function blockingTurn(
  ctx: CommandContext,
  client: Client,
  text: string,
  taskId: string | undefined,
  contextId: string | undefined,
  answer: AnswerWriter,
): Promise<Outcome> {
  const response = await client.sendMessage({ message: textMessage(text, { taskId, contextId }) }, { signal: ctx.signal });
  if (ctx.common.json) writeJsonLine(ctx, SendMessageResponse.toJSON(response));
  const payload = response.payload;
  if (payload?.$case === 'message') {
    if (!ctx.common.json) answer.block(partsText(payload.value.parts));
    return { statusText: '', contextId: payload.value.contextId };
  }
  const task = payload?.value;
  return task ? showTask(ctx, task, answer) : { statusText: '' };
}
