import type { BindingKey } from '@a2a-polyglot/client';
import { parse, type CommandName } from './args.js';
import { cardCommand } from './commands/card.js';
import { liteCommand } from './commands/lite.js';
import { sendCommand } from './commands/send.js';
import { subscribeCommand } from './commands/subscribe.js';
import { cancelCommand, getCommand, listCommand } from './commands/tasks.js';
import type { CommandContext } from './context.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { describeFailure } from './failure.js';
import { HELP } from './help.js';
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
 * stderr (`a2a: ...`), never a stack trace. `signal` aborts the command (Ctrl-C).
 */
export async function run(argv: readonly string[], io: Io, signal: AbortSignal): Promise<ExitCode> {
  let binding: BindingKey | undefined;
  try {
    const parsed = parse(argv);
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
      signal,
      usedBinding: (b) => (binding = b),
    };
    return await COMMANDS[parsed.command](ctx);
  } catch (error) {
    const { line, code } = describeFailure(error, binding);
    io.stderr.write(`a2a: ${line}\n`);
    return code;
  }
}
