import { spawn } from 'node:child_process';
import { IpcClient } from './ipc.js';
import type { Pinning } from './pinning.js';

/** A child process of the harness (a server or a load generator). */
export interface BenchChild {
  readonly name: string;
  readonly pid: number;
  readonly ipc: IpcClient;
  /** Asks the child to exit, then kills it if it has not within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Where and how to start a child. */
export interface SpawnOptions {
  readonly name: string;
  /** Compiled script (absolute path). */
  readonly script: string;
  readonly args?: readonly string[];
  readonly nodeArgs?: readonly string[];
  /** 'server' → CPU 0, 'load' → CPU 1 (when pinning is enabled). */
  readonly role: 'server' | 'load';
  readonly pinning: Pinning;
}

/**
 * Starts a Node child with an IPC channel, pinned with `taskset -c` when enabled. taskset
 * execs node in place, so the pid and the IPC channel are node's own.
 */
export function spawnChild(options: SpawnOptions): BenchChild {
  const nodeArgv = [...(options.nodeArgs ?? []), options.script, ...(options.args ?? [])];
  const cpu = options.role === 'server' ? options.pinning.serverCpus : options.pinning.loadCpus;
  const [command, argv] = options.pinning.enabled ? ['taskset', ['-c', cpu, process.execPath, ...nodeArgv]] : [process.execPath, nodeArgv];
  const child = spawn(command as string, argv as string[], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const ipc = new IpcClient(child, options.name);
  let stopped: Promise<void> | undefined;
  return {
    name: options.name,
    pid: child.pid ?? -1,
    ipc,
    stop(graceMs = 3000) {
      stopped ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        if (child.connected) child.disconnect();
        else child.kill('SIGTERM');
      });
      return stopped;
    },
  };
}
