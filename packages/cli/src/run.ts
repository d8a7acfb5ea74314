import type { BindingKey } from '@a2a-polyglot/client';
import { parse, type CommandName } from './args.js';
import { cardCommand } from './commands/card.js';
import { liteCommand } from './commands/lite.js';
import { sendCommand } from './commands/send.js';
import { subscribeCommand } from './commands/subscribe.js';
import { cancelCommand, getCommand, listCommand } from './commands/tasks.js';
import type { CommandContext } from './context.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { describeFailure, failureJson } from './failure.js';
import { HELP } from './help.js';
import { invocationOf } from './invocation.js';
import type { Io } from './io.js';

const COMMANDS: Readonly<Record<CommandName, (ctx: CommandContext) => Promise<ExitCode>>> = {
  card: cardCommand,
  send: sendCommand,
  get: getCommand,
  list: listCommand,
  cancel: cancelCommand,
  subscribe: subscribeCommand,
  lite: liteCommand,
};

/** The CLI's version (this package's). */
export const VERSION = '0.1.0';

/**
 * Runs one `a2a` command line and returns its exit code. Every failure ends as one line on
 * stderr (`a2a: ...`), never a stack trace; with `--json` also as one JSON object on stdout
 * (`{"error": …}`, see `failureJson`), so a script reading stdout always gets JSON.
 * `signal` aborts the command (Ctrl-C).
 */
export async function run(argv: readonly string[], io: Io, signal: AbortSignal): Promise<ExitCode> {
  let binding: BindingKey | undefined;
  const invocation = invocationOf(io.env, io.script, process.cwd());
  // Known before parsing, so a usage error of a `--json` command line is JSON too.
  let json = argv.includes('--json');
  try {
    const parsed = parse(argv, io.env);
    if (parsed.kind === 'help') {
      io.stdout.write(`${HELP[parsed.command ?? 'main']}\n`);
      return EXIT.ok;
    }
    if (parsed.kind === 'version') {
      io.stdout.write(`a2a ${VERSION} (A2A protocol 1.0, and 0.3 for v0.3 agents)\n`);
      return EXIT.ok;
    }
    const ctx: CommandContext = {
      io,
      command: parsed.command,
      positionals: parsed.positionals,
      values: parsed.values,
      common: parsed.common,
      invocation,
      signal,
      usedBinding: (b) => (binding = b),
    };
    json = parsed.values.json === true;
    return await COMMANDS[parsed.command](ctx);
  } catch (error) {
    const failure = describeFailure(error, binding, invocation);
    if (json) io.stdout.write(`${JSON.stringify(failureJson(failure))}\n`);
    io.stderr.write(`a2a: ${failure.line}${failure.hint ?? ''}\n`);
    return failure.code;
  }
}
