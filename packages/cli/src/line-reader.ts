import { createInterface, type Interface } from 'node:readline';
import type { Io } from './io.js';

/**
 * Reads answers line by line from stdin for input-required prompts. Lines that arrive
 * before a prompt is shown are kept (piped or pasted input is never lost); end of input
 * resolves to undefined.
 */
export class LineReader {
  private readonly lines: string[] = [];
  private readonly waiters: Array<(line: string | undefined) => void> = [];
  private closed = false;
  private readonly rl: Interface;

  constructor(private readonly io: Io) {
    this.rl = createInterface({ input: io.stdin, terminal: false });
    this.rl.on('line', (line) => {
      const waiter = this.waiters.shift();
      if (waiter) waiter(line);
      else this.lines.push(line);
    });
    this.rl.on('close', () => {
      this.closed = true;
      for (const waiter of this.waiters.splice(0)) waiter(undefined);
    });
  }

  /** Shows `prompt` on stdout and resolves with the next line (undefined at end of input or on abort). */
  ask(prompt: string, signal: AbortSignal): Promise<string | undefined> {
    this.io.stdout.write(prompt);
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.closed || signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const onAbort = () => resolve(undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push((line) => {
        signal.removeEventListener('abort', onAbort);
        resolve(line);
      });
    });
  }

  close(): void {
    this.rl.close();
  }
}
