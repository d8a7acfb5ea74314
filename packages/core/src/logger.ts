/**
 * The logging seam. The core logs through this interface only, so a host can route logs to
 * pino, OpenTelemetry or nowhere. Secrets are never passed to it.
 */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Discards everything; the default inside libraries and tests. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** One JSON line per entry on the console, at or above `level`. */
export function consoleLogger(level: 'debug' | 'info' | 'warn' | 'error' = 'info'): Logger {
  const order = ['debug', 'info', 'warn', 'error'];
  const min = order.indexOf(level);
  const emit = (lvl: 'debug' | 'info' | 'warn' | 'error') => (message: string, fields?: Record<string, unknown>) => {
    if (order.indexOf(lvl) < min) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level: lvl, msg: message, ...fields }, errorReplacer);
    (lvl === 'error' || lvl === 'warn' ? console.error : console.log)(line);
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}
