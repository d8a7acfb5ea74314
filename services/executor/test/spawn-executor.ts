/**
 * Runs `src/main.ts` in child processes (through scripts/run-ts.js, no build needed), for the
 * tests that need real processes: several instances on one database, kill -9, restarts.
 */
import { waitFor } from '@a2a-polyglot/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const bootstrap = resolve(__dirname, '../../../scripts/run-ts.js');
const main = resolve(__dirname, '../src/main.ts');

/** One executor process and what it printed. */
export interface ExecutorProcess {
  readonly process: ChildProcess;
  stdout: string;
  stderr: string;
  readonly exited: Promise<number | null>;
}

/** Starts `main.ts` with command-line `args`, exactly `env` (plus PATH) and Node's own `nodeArgs` (a heap cap, the inspector). */
export function spawnExecutor(env: Record<string, string>, args: readonly string[] = [], nodeArgs: readonly string[] = []): ExecutorProcess {
  const child = spawn(process.execPath, [...nodeArgs, bootstrap, main, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
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
