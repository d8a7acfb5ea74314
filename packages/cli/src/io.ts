/** The process streams the CLI talks to, injectable for in-process use. */
export interface Io {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
  /** The script node was started with (`process.argv[1]`): part of how hints name the command (see `invocationOf`). */
  readonly script?: string;
}

/** The real process. */
export function processIo(): Io {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, script: process.argv[1] };
}

/**
 * True when the CLI may prompt for input-required answers: stdin and stdout are a terminal.
 * `A2A_INTERACTIVE=1` forces it on (expect-style drivers, tests feeding stdin through a
 * pipe), `A2A_INTERACTIVE=0` forces it off.
 */
export function interactive(io: Io): boolean {
  if (io.env.A2A_INTERACTIVE === '1') return true;
  if (io.env.A2A_INTERACTIVE === '0') return false;
  return Boolean(io.stdin.isTTY && io.stdout.isTTY);
}

/** True when stderr is a terminal: then a live, self-overwriting status line is drawn there. */
export function liveStatus(io: Io): boolean {
  return Boolean(io.stderr.isTTY) && io.env.A2A_INTERACTIVE !== '0';
}
