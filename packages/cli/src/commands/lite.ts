import { formatLiteArgs, LiteError, LiteRpcError, parseLite, runLiteExchange, type ParsedLite } from '@a2a-polyglot/a2a-lite';
import { UsageError, type LiteSubcommand } from '../args.js';
import { type CommandContext, positional, writeJsonLine } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { failureJson } from '../failure.js';

/**
 * `a2a lite parse|format|run`: thin wrappers over `@a2a-polyglot/a2a-lite`, so a chat-channel
 * agent (or a shell script standing in for one) can read, write and delegate A2A-Lite
 * messages without its own codec.
 */
export async function liteCommand(ctx: CommandContext): Promise<ExitCode> {
  const [sub, ...args] = ctx.positionals as [LiteSubcommand, ...string[]];
  switch (sub) {
    case 'parse':
      return liteParse(ctx, args[0]);
    case 'format':
      return liteFormat(ctx, args);
    case 'run':
      return liteRun(ctx, positional(ctx, 1, 'URL'), positional(ctx, 2, 'TEXT'));
  }
}

/** Prints the parsed message as one JSON line. Untagged or malformed text is plain conversation: exit 0. */
async function liteParse(ctx: CommandContext, text: string | undefined): Promise<ExitCode> {
  const input = text === undefined || text === '-' ? await readStdin(ctx, 'lite parse') : text;
  writeJsonLine(ctx, parseLite(input));
  return EXIT.ok;
}

/** Prints the tagged line (and body); a message the codec refuses is a usage error. */
function liteFormat(ctx: CommandContext, args: readonly string[]): ExitCode {
  let text: string;
  try {
    text = formatLiteArgs(args);
  } catch (error) {
    if (error instanceof LiteError) throw new UsageError(error.message, 'lite format');
    throw error;
  }
  ctx.io.stdout.write(`${text}\n`);
  return EXIT.ok;
}

/**
 * Delegates one Lite message to the A2A agent at `url` and prints each Lite message the
 * exchange produces as soon as it exists. The exit code follows the last state reported, as
 * for `a2a send`.
 */
async function liteRun(ctx: CommandContext, url: string, text: string): Promise<ExitCode> {
  const input = text === '-' ? await readStdin(ctx, 'lite run') : text;
  // No card is at hand before the exchange, so an API key goes in the client's default header.
  const headers = {
    ...ctx.common.headers,
    ...(ctx.common.token ? { authorization: `Bearer ${ctx.common.token}` } : {}),
    ...(ctx.common.apiKey ? { 'x-api-key': ctx.common.apiKey } : {}),
  };
  let last: ParsedLite | undefined;
  try {
    await runLiteExchange(url, input, {
      headers,
      timeoutMs: ctx.common.timeoutMs,
      signal: ctx.signal,
      ...(ctx.values['no-stream'] === true && { stream: false }),
      ...(typeof ctx.values['context-id'] === 'string' && { contextId: ctx.values['context-id'] }),
      onMessage: (message) => {
        last = parseLite(message);
        if (ctx.common.json) writeJsonLine(ctx, { text: message, lite: last });
        else ctx.io.stdout.write(`${message}\n`);
      },
    });
  } catch (error) {
    if (ctx.signal.aborted) {
      ctx.io.stderr.write('a2a: interrupted\n');
      return EXIT.interrupted;
    }
    if (error instanceof LiteError) throw new UsageError(error.message, 'lite run');
    const failure = exchangeFailure(error, url);
    if (ctx.common.json) writeJsonLine(ctx, failureJson(failure));
    ctx.io.stderr.write(`a2a: ${failure.line}\n`);
    return failure.code;
  }
  return outcome(ctx, url, last);
}

/** The exit code for the last message of an exchange (and, for input-required, how to answer). */
function outcome(ctx: CommandContext, url: string, last: ParsedLite | undefined): ExitCode {
  if (!last?.isA2A) return EXIT.ok;
  const state = last.params.state;
  if (state === 'failed' || state === 'cancelled' || state === 'rejected') return EXIT.taskUnsuccessful;
  if (state === 'input-required') {
    const { task, ref } = last.params;
    ctx.io.stderr.write(
      `a2a: the agent needs input; answer with: ${ctx.invocation} lite run ${url} '[A2A:task id=${task ?? '…'} ref=${ref ?? '…'}]\n<answer>'\n`,
    );
    return EXIT.inputRequired;
  }
  return EXIT.ok;
}

/** One line and an exit code for an exchange that could not run (no card, unreachable, too slow). */
function exchangeFailure(error: unknown, url: string): { line: string; code: ExitCode } {
  if (error instanceof LiteRpcError) {
    if (/^(No A2A agent card|The agent card)/.test(error.message)) return { line: lower(error.message), code: EXIT.notA2A };
    if (/did not finish within/.test(error.message)) return { line: lower(error.message), code: EXIT.unreachable };
    if (error.code === undefined && /not JSON|without result/.test(error.message)) return { line: lower(error.message), code: EXIT.notA2A };
    return { line: lower(error.message), code: EXIT.agentError };
  }
  if (error instanceof TypeError) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code === 'ECONNREFUSED' ? 'connection refused (ECONNREFUSED)' : (cause?.code ?? cause?.message ?? error.message);
    return { line: `cannot reach ${url}: ${reason}`, code: EXIT.unreachable };
  }
  return { line: `unexpected failure: ${error instanceof Error ? error.message : String(error)}`, code: EXIT.taskUnsuccessful };
}

/** Reads all of stdin; a terminal with nothing piped in is a usage mistake, not a hang. */
async function readStdin(ctx: CommandContext, topic: 'lite parse' | 'lite run'): Promise<string> {
  if (ctx.io.stdin.isTTY)
    throw new UsageError(
      topic === 'lite parse' ? 'missing TEXT (give it as an argument or pipe it on stdin)' : 'TEXT is "-" but stdin is a terminal (pipe the message in)',
      topic,
    );
  let text = '';
  ctx.io.stdin.setEncoding('utf8');
  for await (const chunk of ctx.io.stdin) text += chunk as string;
  return text;
}

function lower(message: string): string {
  return /^[A-Z][a-z]/.test(message) ? message.charAt(0).toLowerCase() + message.slice(1) : message;
}
