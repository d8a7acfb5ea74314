import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';

/** How children are placed on CPUs. */
export interface Pinning {
  readonly enabled: boolean;
  /** CPU list for servers and for load generators (`taskset -c` syntax). */
  readonly serverCpus: string;
  readonly loadCpus: string;
  /** Why pinning is off, for the notice and the report. */
  readonly reason: string;
}

/**
 * Pins servers to CPU 0 and load generators to CPU 1 when `taskset` works and there are at
 * least two CPUs, so the server has one core to itself and the client cannot steal it.
 * Otherwise everything runs unpinned, and the report says so.
 */
export function detectPinning(wanted: boolean): Pinning {
  const off = (reason: string): Pinning => ({ enabled: false, serverCpus: '', loadCpus: '', reason });
  if (!wanted) return off('disabled by PIN=off');
  if (process.platform !== 'linux') return off(`taskset is Linux-only (platform ${process.platform})`);
  if (cpus().length < 2) return off(`only ${cpus().length} CPU`);
  const probe = spawnSync('taskset', ['-c', '1', 'true'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) return off(`taskset unavailable (${probe.error?.message ?? `exit ${probe.status}`})`);
  return { enabled: true, serverCpus: '0', loadCpus: '1', reason: 'taskset -c 0 (servers) / -c 1 (load)' };
}
