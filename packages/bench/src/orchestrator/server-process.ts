import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnChild, type BenchChild } from '../child.js';
import type { ServerUsage } from '../servers/server-main.js';
import type { ServerKind } from '../targets.js';
import type { RunContext } from './context.js';

/** A server child that reported ready. */
export interface ServerProcess {
  readonly kind: ServerKind;
  readonly child: BenchChild;
  readonly pid: number;
  readonly ports: Readonly<Record<string, number>>;
  readonly notes: readonly string[];
  usage(gc?: boolean): Promise<ServerUsage>;
  stop(): Promise<void>;
}

/** The port a server reported under `name`, or a clear error when it reported none. */
export function portOf(server: Pick<ServerProcess, 'kind' | 'ports'>, name: string): number {
  const port = server.ports[name];
  if (!port) throw new Error(`the ${server.kind} server reported no ${name} port`);
  return port;
}

const READY_TIMEOUT_MS = 30_000;

/**
 * Starts one server kind in its own process (pinned to the server CPU) and waits for its ports.
 * `option` goes to the child as a JSON argument (the durable scenario's storage settings).
 */
export async function startServerProcess(ctx: RunContext, kind: ServerKind, option?: unknown): Promise<ServerProcess> {
  const child = spawnChild({
    name: `server ${kind}`,
    script: join(__dirname, '..', 'servers', 'server-main.js'),
    args: option === undefined ? [kind] : [kind, JSON.stringify(option)],
    nodeArgs: ['--expose-gc', ...profilerArgs(ctx, kind)],
    role: 'server',
    pinning: ctx.pinning,
  });
  try {
    type Ready = { pid: number; ports: Record<string, number>; notes: string[] };
    const ready = await new Promise<Ready>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server ${kind} not ready within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
      child.ipc.on('ready', (payload: Ready) => {
        clearTimeout(timer);
        resolve(payload);
      });
      child.ipc.on('failed', (payload: { error: string }) => {
        clearTimeout(timer);
        reject(new Error(`server ${kind} failed to start: ${payload.error}`));
      });
      child.ipc.on('exit', () => {
        clearTimeout(timer);
        reject(new Error(`server ${kind} exited during startup`));
      });
    });
    return {
      kind,
      child,
      pid: ready.pid,
      ports: ready.ports,
      notes: ready.notes,
      usage: (gc = false) => child.ipc.call<ServerUsage>('usage', { gc }, 30_000),
      stop: () => child.stop(),
    };
  } catch (error) {
    await child.stop(1000);
    throw error;
  }
}

/** `node --cpu-prof` flags when the run asked for profiles (`CPU_PROF=1`). */
function profilerArgs(ctx: RunContext, kind: ServerKind): string[] {
  const dir = ctx.config.cpuProfDir;
  if (!dir) return [];
  const kindDir = join(dir, kind);
  mkdirSync(kindDir, { recursive: true });
  // Node names each file CPU.<date>.<time>.<pid>...cpuprofile; one folder per server kind.
  return ['--cpu-prof', `--cpu-prof-dir=${kindDir}`];
}

/** Starts a load-generator child (pinned to the load CPU) and waits until it listens. */
export async function startLoadProcess(ctx: RunContext): Promise<BenchChild> {
  const child = spawnChild({ name: 'load', script: join(__dirname, '..', 'load', 'load-main.js'), role: 'load', pinning: ctx.pinning });
  try {
    await child.ipc.once('ready', READY_TIMEOUT_MS);
    return child;
  } catch (error) {
    await child.stop(1000);
    throw error;
  }
}
