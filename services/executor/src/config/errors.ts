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
  /**
   * Every problem found, each one line without the `Invalid configuration: ` prefix: one for a
   * single problem, several when a layer had more (see {@link configErrorOfAll}).
   */
  readonly problems: readonly string[];
  constructor(message: string, detail?: string, problems?: readonly string[]) {
    super(message);
    this.name = 'ConfigError';
    this.detail = detail;
    this.problems = problems ?? [message.replace(PREFIX, '')];
  }
}

const PREFIX = /^Invalid configuration: /;

/**
 * One error for every problem of `errors` (each may hold several), so an operator fixes them
 * all in one go instead of one per restart. A single problem keeps its own one-line message;
 * several read `Invalid configuration (N problems):` with one indented line each.
 */
export function configErrorOfAll(errors: readonly ConfigError[]): ConfigError {
  const problems = errors.flatMap((e) => e.problems);
  const [only] = errors;
  if (only !== undefined && problems.length === 1) return only;
  return new ConfigError(`Invalid configuration (${problems.length} problems):\n${problems.map((p) => `  - ${p}`).join('\n')}`, undefined, problems);
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
