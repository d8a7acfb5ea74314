/** What {@link captureOutput} caught, and how to put the real outputs back. */
export interface CapturedOutput {
  /** Every chunk written to stdout/stderr and every console call (arguments joined by spaces), in order. */
  readonly written: string[];
  /** Restores process.stdout/stderr.write and the console methods; call it in a `finally`. */
  restore(): void;
}

const CONSOLE_LEVELS = ['log', 'info', 'warn', 'error', 'debug'] as const;

/**
 * Diverts stdout, stderr and the console into {@link CapturedOutput.written} until `restore`:
 * the "a library given no logger prints nothing" tests of every binding check that list is
 * empty, so they capture the same outputs the same way.
 */
export function captureOutput(): CapturedOutput {
  const written: string[] = [];
  const stdoutWrite = process.stdout.write;
  const stderrWrite = process.stderr.write;
  const consoleMethods = CONSOLE_LEVELS.map((level) => [level, console[level]] as const);
  const swallow = (chunk: unknown): boolean => {
    written.push(String(chunk));
    return true;
  };
  process.stdout.write = swallow as typeof process.stdout.write;
  process.stderr.write = swallow as typeof process.stderr.write;
  for (const level of CONSOLE_LEVELS) console[level] = (...args: unknown[]) => void written.push(args.join(' '));
  return {
    written,
    restore() {
      process.stdout.write = stdoutWrite;
      process.stderr.write = stderrWrite;
      for (const [level, method] of consoleMethods) console[level] = method;
    },
  };
}
