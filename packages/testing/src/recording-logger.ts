/** A level of the pino-shaped logger seam (core's `Logger`). */
export type LogLevelName = 'debug' | 'info' | 'warn' | 'error';

/** One recorded line: its level, message, and every field (child bindings merged in). */
export interface LogLine {
  readonly level: LogLevelName;
  readonly msg: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/**
 * A logger that keeps its lines, for tests asserting what a package logged and with which
 * fields. Structurally a core `Logger` (pino's `(fields, message)` / `(message)` shape and
 * `child`), declared here without importing core, which depends on this package for its tests.
 */
export interface RecordingLogger {
  debug(first: object | string, message?: string): void;
  info(first: object | string, message?: string): void;
  warn(first: object | string, message?: string): void;
  error(first: object | string, message?: string): void;
  child(bindings: Record<string, unknown>): RecordingLogger;
  /** Every line of this logger and its children, oldest first. */
  readonly lines: LogLine[];
  /** The messages logged at `level` (all levels when omitted). */
  messages(level?: LogLevelName): string[];
}

/** A fresh {@link RecordingLogger}; children record into the same list. */
export function recordingLogger(lines: LogLine[] = [], bindings: Record<string, unknown> = {}): RecordingLogger {
  const at =
    (level: LogLevelName) =>
    (first: object | string, message?: string): void => {
      if (typeof first === 'string') lines.push({ level, msg: first, fields: { ...bindings } });
      else lines.push({ level, msg: message ?? '', fields: { ...bindings, ...first } });
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (more) => recordingLogger(lines, { ...bindings, ...more }),
    lines,
    messages: (level) => lines.filter((l) => level === undefined || l.level === level).map((l) => l.msg),
  };
}
