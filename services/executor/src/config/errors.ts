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

/**
 * The {@link ConfigError} of a bad value, in the form every config error takes:
 * `Invalid configuration: <where> must be <expectation> (<got>)`. Used where a value is
 * checked outside the schema: text conversion of environment variables and flags, and the
 * cross-field rules of the merged configuration. `shown` replaces the value when it is a
 * secret.
 */
export function invalidValue(where: string, expectation: string, value: unknown, shown?: string): never {
  const detail = `must be ${expectation} (${shown ?? `got ${JSON.stringify(value) ?? String(value)}`})`;
  throw new ConfigError(`Invalid configuration: ${where} ${detail}`, detail);
}
