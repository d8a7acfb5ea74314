import { MAX_PAGE_SIZE } from '@a2a-polyglot/core';
import { ListTasksResponse, Task } from '@a2a-polyglot/model';
import { intOption, UsageError } from '../args.js';
import { connect } from '../connect.js';
import { type CommandContext, positional, writeJsonLine } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { formatTask, formatTaskLine, parseState, stateName } from '../render.js';

/** `a2a get URL TASK_ID`. */
export async function getCommand(ctx: CommandContext): Promise<ExitCode> {
  const historyLength = intOption(ctx.values, 'history', 'get');
  const client = await connect(positional(ctx, 0, 'URL'), ctx.common, ctx.signal);
  ctx.usedBinding(client.binding);
  try {
    const task = await client.getTask({ id: positional(ctx, 1, 'TASK_ID'), historyLength }, { signal: ctx.signal });
    if (ctx.common.json) writeJsonLine(ctx, Task.toJSON(task));
    else ctx.io.stdout.write(formatTask(task));
    return EXIT.ok;
  } finally {
    await client.close();
  }
}

/** `a2a list URL`. */
export async function listCommand(ctx: CommandContext): Promise<ExitCode> {
  const pageSize = intOption(ctx.values, 'page-size', 'list');
  // Refused here, not sent: 0 is proto3's "unset", so an agent would quietly answer a page of
  // its default size instead of the empty page asked for (and above the spec's cap, an error).
  if (pageSize !== undefined && (pageSize < 1 || pageSize > MAX_PAGE_SIZE))
    throw new UsageError(`--page-size must be between 1 and ${MAX_PAGE_SIZE} (got ${pageSize})`, 'list');
  const statusText = ctx.values.status as string | undefined;
  const status = statusText === undefined ? undefined : parseState(statusText);
  if (statusText !== undefined && status === undefined)
    throw new UsageError(`--status: unknown task state "${statusText}" (e.g. working, completed, input-required)`, 'list');
  const client = await connect(positional(ctx, 0, 'URL'), ctx.common, ctx.signal);
  ctx.usedBinding(client.binding);
  try {
    const page = await client.listTasks(
      { contextId: ctx.values['context-id'] as string | undefined, status, pageSize, pageToken: ctx.values['page-token'] as string | undefined },
      { signal: ctx.signal },
    );
    if (ctx.common.json) {
      writeJsonLine(ctx, ListTasksResponse.toJSON(page));
      return EXIT.ok;
    }
    if (page.tasks.length === 0) ctx.io.stdout.write('No tasks.\n');
    for (const task of page.tasks) ctx.io.stdout.write(`${formatTaskLine(task)}\n`);
    if (page.nextPageToken) ctx.io.stdout.write(`More: --page-token ${page.nextPageToken}\n`);
    return EXIT.ok;
  } finally {
    await client.close();
  }
}

/** `a2a cancel URL TASK_ID`. */
export async function cancelCommand(ctx: CommandContext): Promise<ExitCode> {
  const client = await connect(positional(ctx, 0, 'URL'), ctx.common, ctx.signal);
  ctx.usedBinding(client.binding);
  try {
    const task = await client.cancelTask({ id: positional(ctx, 1, 'TASK_ID') }, { signal: ctx.signal });
    if (ctx.common.json) writeJsonLine(ctx, Task.toJSON(task));
    else ctx.io.stdout.write(`Task ${task.id} is ${stateName(task.status?.state)}.\n`);
    return EXIT.ok;
  } finally {
    await client.close();
  }
}
