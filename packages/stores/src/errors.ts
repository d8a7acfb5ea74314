import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';

/**
 * The error every request sees while a backing service is down: `Unavailable` (retry later),
 * naming the service but never its address or credentials. The driver's error stays in
 * `cause`, for the logs only.
 */
export function unavailable(service: string, cause: unknown): A2AError {
  if (cause instanceof A2AError) return cause;
  return new A2AError(A2AErrorCode.Unavailable, `The ${service} is unavailable; retry later`, { cause });
}

/** Removes the password from a connection URL, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<unparsable URL>';
  }
}
