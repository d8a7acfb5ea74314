import type { BindingKey } from '@a2a-polyglot/client';
import { type CommandName, type CommonOptions, UsageError } from './args.js';
import type { Io } from './io.js';

/** What a command gets to run. */
export interface CommandContext {
  readonly io: Io;
  readonly command: CommandName;
  readonly positionals: readonly string[];
  readonly values: Record<string, unknown>;
  readonly common: CommonOptions;
  /** How the user ran the CLI (`a2a`, `npx a2a`, `npm run a2a --`): the prefix of every command a hint prints. */
  readonly invocation: string;
  /** Aborted on Ctrl-C. */
  readonly signal: AbortSignal;
  /** Records the binding in use, so errors show the code in that binding's terms. */
  usedBinding(binding: BindingKey): void;
}

/** Writes one JSON document per line (`--json`). */
export function writeJsonLine(ctx: CommandContext, value: unknown): void {
  ctx.io.stdout.write(`${JSON.stringify(value)}\n`);
}

/**
 * The command's positional argument at `index`. The argument parser already checked the
 * count, so a miss means a caller bypassed it: reported as a usage error naming `name`.
 */
export function positional(ctx: CommandContext, index: number, name: string): string {
  const value = ctx.positionals[index];
  if (value === undefined) throw new UsageError(`missing ${name}`, ctx.command);
  return value;
}
