import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';

/**
 * Why a call failed on the client side, carried in `A2AError.metadata.clientFailure`. Errors
 * the server sent have none. Callers (the CLI, retry and resume logic) switch on it instead
 * of parsing messages.
 */
export type ClientFailure =
  /** Connection refused / reset / DNS failure: nothing answered. */
  | 'unreachable'
  /** The call's deadline passed. */
  | 'timeout'
  /** An open stream went silent for longer than its idle timeout. */
  | 'idle'
  /** The caller aborted. */
  | 'aborted'
  /** Something answered, but not as an A2A server would (HTML, 404 with no A2A error body, wrong content type). */
  | 'not-a2a'
  /** An agent card was found but is malformed. */
  | 'bad-card'
  /** An agent card's signatures do not verify with the trusted keys (`verifyCard`): changed, unsigned or signed by another key. */
  | 'bad-card-signature'
  /** A stream was cut and could not be resumed. */
  | 'cut';

/** The metadata key holding a {@link ClientFailure}. */
export const CLIENT_FAILURE_KEY = 'clientFailure';

/** Builds a client-side A2AError tagged with its {@link ClientFailure}. */
export function clientError(code: A2AErrorCode, failure: ClientFailure, message: string, cause?: unknown): A2AError {
  return new A2AError(code, message, { cause, metadata: { [CLIENT_FAILURE_KEY]: failure } });
}

/** The client-side failure kind of an error, if it has one. */
export function clientFailureOf(error: unknown): ClientFailure | undefined {
  if (!(error instanceof A2AError)) return undefined;
  return error.metadata[CLIENT_FAILURE_KEY] as ClientFailure | undefined;
}

/** A connection-level failure of fetch (refused, reset, DNS, TLS), described by its cause code. */
export function unreachable(url: string, cause: unknown): A2AError {
  return clientError(A2AErrorCode.Unavailable, 'unreachable', `Cannot reach ${originOf(url)}: ${networkReason(cause)}`, cause);
}

/** The response is not what an A2A server sends. */
export function notA2A(message: string): A2AError {
  return clientError(A2AErrorCode.InvalidAgentResponse, 'not-a2a', message);
}

/** Deadline passed. */
export function timedOut(what: string, timeoutMs: number): A2AError {
  return clientError(A2AErrorCode.DeadlineExceeded, 'timeout', `${what}: no answer within ${timeoutMs} ms`);
}

/** The caller aborted. */
export function aborted(what: string): A2AError {
  return clientError(A2AErrorCode.DeadlineExceeded, 'aborted', `${what}: aborted by the caller`);
}

/** `scheme://host:port` of a URL (messages name the server, not the full path). */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** The most specific reason fetch gives for a network failure (`ECONNREFUSED`, `ENOTFOUND`, ...). */
export function networkReason(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === 'string' && /^E[A-Z_]+$/.test(e.code)) return describeCode(e.code);
    if (!e.cause) return typeof e.message === 'string' && e.message ? e.message : String(current);
    current = e.cause;
  }
  return 'network error';
}

function describeCode(code: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (ECONNREFUSED)';
    case 'ECONNRESET':
      return 'connection reset (ECONNRESET)';
    case 'ENOTFOUND':
      return 'host not found (ENOTFOUND)';
    case 'EAI_AGAIN':
      return 'host name lookup failed (EAI_AGAIN)';
    case 'ETIMEDOUT':
      return 'connection timed out (ETIMEDOUT)';
    case 'EHOSTUNREACH':
      return 'host unreachable (EHOSTUNREACH)';
    default:
      return code;
  }
}
