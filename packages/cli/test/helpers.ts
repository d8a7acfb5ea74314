/** Runs `a2a` the way a user does: a child process with arguments, stdin, stdout, stderr and an exit code. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const cliRoot = path.resolve(__dirname, '..');

/** What one run printed and how it exited. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link a2a}. */
export interface RunOptions {
  /** Written to stdin, then stdin is closed. */
  readonly stdin?: string;
  readonly env?: Record<string, string>;
  /** Kill after this long (every wait in a test is bounded). Default 20 s. */
  readonly killAfterMs?: number;
  /** Called with stdout as it grows, and the child (to act mid-run). */
  readonly onStdout?: (soFar: string, child: ChildProcess) => void;
  /** Called with stderr as it grows, and the child (to signal it mid-run, like Ctrl-C). */
  readonly onStderr?: (soFar: string, child: ChildProcess) => void;
  /**
   * Sends stderr into the stdout pipe (`2>&1`), as a log file or a terminal gets them: `stdout`
   * holds both in the order written, `stderr` is empty.
   */
  readonly combined?: boolean;
}

/**
 * Runs the CLI from its sources (scripts/run-ts.js compiles them on load with SWC, ~0.5 s per
 * run) instead of dist/, so the tests need no build and always exercise the current code.
 */
export function a2a(args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, path.join(cliRoot, '../../scripts/run-ts.js'), path.join(cliRoot, 'src/main.ts'), ...args];
    // `exec … 2>&1` makes the shell point the child's stderr at its stdout pipe, then become the child.
    const [file, ...argv] = options.combined ? ['/bin/sh', '-c', 'exec "$@" 2>&1', 'sh', ...command] : command;
    const child = spawn(file!, argv, {
      cwd: cliRoot,
      env: { ...ownEnv(), NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      options.onStdout?.(stdout, child);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      options.onStderr?.(stderr, child);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (options.stdin !== undefined) child.stdin.end(options.stdin);
    else child.stdin.end();
  });
}

/**
 * The test process's environment without what npm sets for `npx jest` / `npm test`
 * (`npm_command`, `npm_lifecycle_*`, …): the CLI reads those to print hints the way it was
 * started, so a child must see only what a test gives it. Credentials are dropped too.
 */
function ownEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && !/^npm_|^A2A_(TOKEN|API_KEY)$/.test(entry[0])),
  );
}
