import { partsText, textMessage, type Client, type ResumeInfo, type TaskStream } from '@a2a-polyglot/client';
import { SendMessageResponse } from '@a2a-polyglot/model';
import { UsageError } from '../args.js';
import { connect } from '../connect.js';
import { type CommandContext, positional, writeJsonLine } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { interactive } from '../io.js';
import { LineReader } from '../line-reader.js';
import { StatusLine, stateName } from '../render.js';
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
  if (ctx.values['no-wait'] === true && ctx.values.input !== undefined)
    throw new UsageError('--no-wait does not wait for questions, so --input cannot answer them (drop one of the two)', 'send');
  const client = await connect(positional(ctx, 0, 'URL'), ctx.common, ctx.signal);
  ctx.usedBinding(client.binding);
  if (ctx.values['no-wait'] === true) {
    try {
      return await sendNoWait(ctx, client);
    } finally {
      await client.close();
    }
  }
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
        next = await askAnswer(reader, ctx.signal);
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

/**
 * `send --no-wait`: SendMessage with `returnImmediately`, so the agent answers as soon as the
 * task exists. The task id alone goes to stdout (`id=$(a2a send --no-wait …)`), how to follow
 * it to stderr. An agent that answers with a message instead of a task has nothing to follow:
 * the message is printed as `--no-stream` would.
 */
async function sendNoWait(ctx: CommandContext, client: Client): Promise<ExitCode> {
  const message = textMessage(positional(ctx, 1, 'TEXT'), {
    taskId: ctx.values['task-id'] as string | undefined,
    contextId: ctx.values['context-id'] as string | undefined,
  });
  const response = await client.sendMessage({ message, configuration: { returnImmediately: true } }, { signal: ctx.signal });
  if (ctx.common.json) writeJsonLine(ctx, SendMessageResponse.toJSON(response));
  const payload = response.payload;
  if (payload?.$case === 'task') {
    const task = payload.value;
    if (!ctx.common.json) ctx.io.stdout.write(`${task.id}\n`);
    ctx.io.stderr.write(
      `a2a: task ${task.id} ${stateName(task.status?.state)}; follow it: ${ctx.invocation} subscribe ${positional(ctx, 0, 'URL')} ${task.id}\n`,
    );
    return EXIT.ok;
  }
  if (payload?.$case === 'message' && !ctx.common.json) ctx.io.stdout.write(`${partsText(payload.value.parts)}\n`);
  return EXIT.ok;
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

/**
 * Prompts until the answer has text: Enter on an empty line asks again rather than sending
 * an empty message (which the agent would take as the answer). Undefined at end of input or
 * on Ctrl-C.
 */
async function askAnswer(reader: LineReader, signal: AbortSignal): Promise<string | undefined> {
  for (;;) {
    const line = await reader.ask('> ', signal);
    if (line === undefined || line.trim() !== '') return line;
  }
}
