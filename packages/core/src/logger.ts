/**
 * One way to log a line, in pino's call shape: `(fields, message)` or `(message)`. The same
 * shape as pino's, so a pino logger (or any logger with that shape) is passed as is; the
 * libraries never depend on pino itself.
 */
export interface LogFn {
  (fields: object, message?: string): void;
  (message: string): void;
}

/**
 * The logging seam. The core and every binding, store and bridge log through this interface
 * only, so a host routes logs to pino (the executor does), to OpenTelemetry, or nowhere.
 * `child(bindings)` gives a logger whose every line carries those fields: the bindings and
 * the core use it at the request and operation boundary (binding, request id, trace id, task
 * id), instead of repeating the fields on each call. Secrets are never passed to it.
 */
export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  child(bindings: Record<string, unknown>): Logger;
  /**
   * Whether a line at `level` would be written (pino has it). Optional: without it every level
   * counts as on. Lets a caller skip building the fields of a line nobody reads.
   */
  isLevelEnabled?(level: LogLevelName): boolean;
}

/** The levels of the {@link Logger} seam. */
export type LogLevelName = 'debug' | 'info' | 'warn' | 'error';

const discard = (): void => undefined;

/**
 * Discards everything: the default of every library package, so a library logs nothing
 * unless its host hands it a logger (the executor hands one pino logger to all of them).
 */
export const silentLogger: Logger = { debug: discard, info: discard, warn: discard, error: discard, child: () => silentLogger, isLevelEnabled: () => false };
