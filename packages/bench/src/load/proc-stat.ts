import { readFileSync } from 'node:fs';

/**
 * CPU time (user + system) of a process in clock ticks, from /proc/<pid>/stat; undefined
 * where /proc is unavailable. Read by the load generator at the edges of each window, so
 * the server does no extra work to be measured.
 */
export function readCpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // Fields after the command name (which may hold spaces) start at field 3 (state).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime (14) + stime (15)
  } catch {
    return undefined;
  }
}
