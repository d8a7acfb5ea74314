import type { BenchConfig } from '../config.js';
import type { Pinning } from '../pinning.js';

/** What every scenario runner gets: the knobs, the pinning, and where to say things. */
export interface RunContext {
  readonly config: BenchConfig;
  readonly pinning: Pinning;
  /** Clock ticks per second of /proc/<pid>/stat. */
  readonly clkTck: number;
  /** Progress lines (stderr, so the printed report stays clean on stdout). */
  log(line: string): void;
  /** A notice that also goes into the report (skips, failures, check problems). */
  notice(line: string): void;
}
