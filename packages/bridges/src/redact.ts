import type { LogFn, Logger } from '@a2a-polyglot/core';

/** What replaces a secret wherever it would otherwise appear. */
export const REDACTED = '[redacted]';

/**
 * Removes configured secrets (API keys, tokens, header values) from text before it reaches a
 * log line, a task status message or an error. Why a blunt substring replace: upstreams echo
 * keys in their own error messages ("Incorrect API key provided: sk-…"), and runtime errors
 * may quote headers, so every outgoing string passes through here.
 */
export class Redactor {
  private readonly secrets: readonly string[];

  constructor(secrets: Iterable<string>) {
    // Longest first, so a key that contains another key is removed whole. Very short values
    // would shred ordinary words and are not credentials anyway.
    this.secrets = [...new Set([...secrets].filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
  }

  /** The text with every secret replaced by {@link REDACTED}. */
  text(value: string): string {
    let out = value;
    for (const secret of this.secrets) out = out.split(secret).join(REDACTED);
    return out;
  }

  /** A deep copy of a JSON-like value with secrets removed from every string (and key). */
  value(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') return this.text(value);
    if (depth > 8 || value === null || typeof value !== 'object') return value;
    if (value instanceof Error) return { name: value.name, message: this.text(value.message) };
    if (Array.isArray(value)) return value.map((v) => this.value(v, depth + 1));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.text(k), this.value(v, depth + 1)]));
  }
}

/**
 * A logger that redacts messages and fields before handing them on, children included. This
 * removes known secret VALUES wherever they appear (an upstream echoing a key inside an error
 * text); the executor's pino `redact` paths remove secret FIELDS (authorization headers,
 * tokens) by name. Both run on every line; neither can do the other's job.
 */
export function redactingLogger(logger: Logger, redactor: Redactor): Logger {
  const wrap = (emit: (fields: object, message?: string) => void): LogFn =>
    ((first: object | string, message?: string) =>
      typeof first === 'string'
        ? emit({}, redactor.text(first))
        : emit(redactor.value(first) as object, message === undefined ? undefined : redactor.text(message))) as LogFn;
  return {
    debug: wrap((f, m) => logger.debug(f, m)),
    info: wrap((f, m) => logger.info(f, m)),
    warn: wrap((f, m) => logger.warn(f, m)),
    error: wrap((f, m) => logger.error(f, m)),
    child: (bindings) => redactingLogger(logger.child(redactor.value(bindings) as Record<string, unknown>), redactor),
  };
}

/**
 * A URL safe to log: origin and path only. User info and query strings are where
 * credentials hide (`https://user:pass@host`, `?api_key=`).
 */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
