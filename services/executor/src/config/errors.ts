/**
 * The one error type of configuration loading, kept apart so every step (value checks, file,
 * flags, validation) and the callers that catch it (`main`, `startExecutor`) share it.
 */

/**
 * A configuration problem. Its message is one line that names the offending key and where it
 * came from, so `main` can print it and exit without a stack trace.
 */
export class ConfigError extends Error {
  /** For a bad value: what was expected and what came (`must be … (got …)`), without the key. */
  readonly detail?: string;
  constructor(message: string, detail?: string) {
    super(message);
    this.name = 'ConfigError';
    this.detail = detail;
  }
}
