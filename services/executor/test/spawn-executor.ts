/**
 * Runs `src/main.ts` in child processes (through scripts/run-ts.js, no build needed), for the
 * tests that need real processes: several instances on one database, kill -9, restarts; and
 * the built `dist/main.js` (what `npm start` runs) for the tests that measure the process.
 */
import { waitFor } from '@a2a-polyglot/testing';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const bootstrap = resolve(ROOT, 'scripts/run-ts.js');
const main = resolve(__dirname, '../src/main.ts');
const builtMain = resolve(__dirname, '../dist/main.js');

/** One executor process and what it printed. */
export interface ExecutorProcess {
  readonly process: ChildProcess;
  stdout: string;
  stderr: string;
  readonly exited: Promise<number | null>;
}

/** Starts `main.ts` with command-line `args`, exactly `env` (plus PATH) and Node's own `nodeArgs` (a heap cap, the inspector). */
export function spawnExecutor(env: Record<string, string>, args: readonly string[] = [], nodeArgs: readonly string[] = []): ExecutorProcess {
  return spawnNode([...nodeArgs, bootstrap, main, ...args], { LOG_LEVEL: 'info', ...env });
}

/**
 * Starts the built `dist/main.js` from the repository root, as `npm start` does, with exactly
 * `env` (plus PATH) and Node's own `nodeArgs`. For tests that measure the process: one run
 * from sources also holds the SWC compiler (a native module of tens of MB, mapped into the
 * process) and inline source maps, about 90 MB of RSS that `npm start` does not have.
 */
export function spawnBuiltExecutor(env: Record<string, string>, nodeArgs: readonly string[] = []): ExecutorProcess {
  if (!existsSync(builtMain)) throw new Error('this test runs the built executor: call buildExecutor() first');
  return spawnNode([...nodeArgs, builtMain], env);
}

/** Builds the executor and what it imports, as `npm start` does first (cached by turbo: fast when nothing changed). */
export function buildExecutor(): void {
  execFileSync('npx', ['turbo', 'run', 'build', '--filter=@a2a-polyglot/executor...', '--output-logs=errors-only'], { cwd: ROOT, stdio: 'ignore' });
}

/** Spawns node with `argv` from the repository root, with exactly `env` (plus PATH), collecting what it prints. */
function spawnNode(argv: readonly string[], env: Record<string, string>): ExecutorProcess {
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const c: ExecutorProcess = { process: child, stdout: '', stderr: '', exited: new Promise((r) => child.once('exit', (code) => r(code))) };
  child.stdout!.on('data', (d: Buffer) => (c.stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (c.stderr += d.toString()));
  return c;
}

/** Waits for the startup line and returns the listener URL from it. */
export async function listeningUrl(c: ExecutorProcess, timeoutMs = 20_000): Promise<string> {
  return JSON.parse(await startupLine(c, 'listening on', timeoutMs)).url;
}

/** Waits for the startup line of a worker (`role: "worker"`, no listener) and returns it. */
export function workerStarted(c: ExecutorProcess, timeoutMs = 20_000): Promise<string> {
  return startupLine(c, 'A2A worker started', timeoutMs);
}

/** Waits for the first stdout line containing `marker` (failing at once when the process exits first). */
async function startupLine(c: ExecutorProcess, marker: string, timeoutMs: number): Promise<string> {
  const line = () => c.stdout.split('\n').find((l) => l.includes(marker));
  try {
    await waitFor(
      () => {
        if (line() === undefined && c.process.exitCode !== null) throw new Error(`exited early (${c.process.exitCode}): ${c.stderr}`);
        return line() !== undefined;
      },
      { timeoutMs, intervalMs: 20, what: 'the startup line' },
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; stdout: ${c.stdout} stderr: ${c.stderr}`);
  }
  return line()!;
}

/** Kills with SIGKILL (no shutdown at all) and waits for the exit. */
export async function killHard(c: ExecutorProcess): Promise<void> {
  if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
  await c.exited;
}

/** Sends SIGTERM (the graceful shutdown) and resolves with the exit code. */
export async function terminate(c: ExecutorProcess): Promise<number | null> {
  if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGTERM');
  return c.exited;
}
