import { resolveAgentCard } from '@a2a-polyglot/client';
import { AgentCard } from '@a2a-polyglot/model';
import { type CommandContext, positional, writeJsonLine } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { formatCard } from '../render.js';

/** `a2a card URL`: find, validate and show the agent card. */
export async function cardCommand(ctx: CommandContext): Promise<ExitCode> {
  const { card, url } = await resolveAgentCard(positional(ctx, 0, 'URL'), { headers: ctx.common.headers, timeoutMs: ctx.common.timeoutMs, signal: ctx.signal });
  if (ctx.common.json) writeJsonLine(ctx, AgentCard.toJSON(card));
  else ctx.io.stdout.write(formatCard(card, url));
  return EXIT.ok;
}
