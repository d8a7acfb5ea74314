import { agentCardProblems, resolveAgentCard, type CardProblem } from '@a2a-polyglot/client';
import { AgentCard } from '@a2a-polyglot/model';
import { type CommandContext, positional, writeJsonLine } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { failureJson } from '../failure.js';
import { formatCard } from '../render.js';

/**
 * `a2a card URL`: find, validate and show the agent card, then its problems (the client's
 * card checks, shared with the inspector): fields of the wrong type, skills without a name,
 * interfaces a2a cannot use, missing fields. Errors (`bad`) make it exit {@link EXIT.notA2A},
 * so a script or CI step can check a card; warnings alone do not.
 */
export async function cardCommand(ctx: CommandContext): Promise<ExitCode> {
  const { card, url, json } = await resolveAgentCard(positional(ctx, 0, 'URL'), {
    headers: ctx.common.headers,
    timeoutMs: ctx.common.timeoutMs,
    signal: ctx.signal,
  });
  const problems = agentCardProblems(card, 'a2a', json);
  if (ctx.common.json) writeJsonLine(ctx, AgentCard.toJSON(card));
  else ctx.io.stdout.write(formatCard(card, url));
  if (problems.length > 0) ctx.io.stderr.write(problemLines(problems, url));
  const errors = problems.filter((p) => p.level === 'bad').length;
  if (errors === 0) return EXIT.ok;
  const line = `the agent card at ${url} has ${errors} error${errors === 1 ? '' : 's'}`;
  if (ctx.common.json) writeJsonLine(ctx, failureJson({ line, code: EXIT.notA2A }, problems));
  return EXIT.notA2A;
}

/** `a2a: the card at … has problems:` and one `  error: …` / `  warning: …` line each. */
function problemLines(problems: readonly CardProblem[], url: string): string {
  const lines = problems.map((p) => `  ${p.level === 'bad' ? 'error' : 'warning'}: ${p.text}`);
  return `a2a: the agent card at ${url} has ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}:\n${lines.join('\n')}\n`;
}
