import type { BindingKey } from '@a2a-polyglot/client';
import type { CommandName, CommonOptions } from './args.js';
import type { Io } from './io.js';

/** What a command gets to run. */
export interface CommandContext {
  readonly io: Io;
  readonly command: CommandName;
  readonly positionals: readonly string[];
  readonly values: Record<string, unknown>;
  readonly common: CommonOptions;
  /** Aborted on Ctrl-C. */
  readonly signal: AbortSignal;
  /** Records the binding in use, so errors show the code in that binding's terms. */
  usedBinding(binding: BindingKey): void;
}

/** Writes one JSON document per line (`--json`). */
export function writeJsonLine(ctx: CommandContext, value: unknown): void {
  ctx.io.stdout.write(`${JSON.stringify(value)}\n`);
}
