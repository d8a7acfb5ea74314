import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * `process.exit` refused while an agent module loads. Why: a module runs inside the service's
 * process, and a file that is really a command-line script (it reads `process.argv`, prints
 * usage, calls `process.exit(1)`) ends the whole service, every agent with it, the moment it
 * is imported; with the agent registry, again on every restart while its row exists.
 *
 * How: the load runs in an AsyncLocalStorage scope, and `process.exit` (replaced once, the
 * first time a guard is made) looks the scope up. Outside any scope it is the real exit. Inside:
 * - during the synchronous part of the import ({@link ExitGuard.sync}), it throws
 *   {@link ExitDuringLoadError}, which unwinds the module's top-level code into the loader;
 * - in a callback the module scheduled (a timer, a promise, `main().catch(() => exit(1))`),
 *   it returns without exiting; the attempt is recorded, and once the load is over only logged.
 * A load that attempted an exit fails (see {@link ExitGuard.attempted}).
 *
 * Not covered (the directory allow-list is the defence against those): `process.reallyExit`,
 * `process.abort`, `process.kill(process.pid)`, a native addon, an exception thrown or a promise
 * rejected unhandled in the module's own callbacks (Node ends the process for both), and a
 * module that blocks the event loop with a synchronous loop or synchronous I/O.
 */
export class ExitGuard {
  private syncDepth = 0;
  private ended = false;
  private firstCode: { readonly code: unknown } | undefined;

  /** `onLateExit` is told of exits attempted by the module's callbacks after the load ended. */
  constructor(private readonly onLateExit: (code: unknown) => void) {
    installExitGuard();
  }

  /** Runs `load` (and every callback it schedules) inside this guard's scope; ends the scope when `load` settles. */
  async run<T>(load: () => Promise<T>): Promise<T> {
    try {
      return await scopes.run(this, load);
    } finally {
      this.ended = true;
    }
  }

  /** Runs the synchronous `fn` (a `require`) where `process.exit` throws instead of returning. */
  sync<T>(fn: () => T): T {
    this.syncDepth++;
    try {
      return fn();
    } finally {
      this.syncDepth--;
    }
  }

  /** The exit the module attempted during the load, if any (`{ code }`, the code possibly undefined). */
  get attempted(): { readonly code: unknown } | undefined {
    return this.firstCode;
  }

  /** What `process.exit(code)` does inside this guard's scope. */
  refuse(code: unknown): void {
    if (this.ended) {
      this.onLateExit(code);
      return;
    }
    this.firstCode ??= { code };
    if (this.syncDepth > 0) throw new ExitDuringLoadError(code);
  }
}

/** Thrown by `process.exit` in the synchronous part of a guarded load. */
export class ExitDuringLoadError extends Error {
  constructor(readonly code: unknown) {
    super(`process.exit(${code === undefined ? '' : String(code)}) was refused: agent modules may not end the service`);
    this.name = 'ExitDuringLoadError';
  }
}

const scopes = new AsyncLocalStorage<ExitGuard>();
let installed = false;

/** Replaces `process.exit` once with one that consults the current guard (see {@link ExitGuard}). */
function installExitGuard(): void {
  if (installed) return;
  installed = true;
  const realExit = process.exit.bind(process);
  const guardedExit = (code?: number | string | null): never => {
    const guard = scopes.getStore();
    if (!guard) return realExit(code);
    guard.refuse(code);
    // Refused: the caller carries on. `never` is what process.exit promises; this one returns.
    return undefined as never;
  };
  process.exit = guardedExit;
}
