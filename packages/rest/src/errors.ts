import { A2AError, A2AErrorCode, ERROR_TABLE, type Logger, toHttpErrorBody } from '@a2a-polyglot/core';
import { errorHeaders } from '@a2a-polyglot/http';

/**
 * A REST error response: status, body (v1.0: `{"error": google.rpc.Status}`, spec §11.6;
 * v0.3: a bare `{code, message, data?}`) and headers.
 */
export interface RestErrorResponse<B = ReturnType<typeof toHttpErrorBody>> {
  readonly status: number;
  readonly body: B;
  readonly headers: Record<string, string>;
}

/**
 * Maps anything thrown to a REST error through core's one table. `status` overrides the table
 * for HTTP-only failures the table has no row for (405 wrong verb, 415 content type); the
 * body's `code` always equals the HTTP status sent. Unknown failures become a bare 500
 * "Internal error" (A2AError.from hides their text); their cause is logged.
 */
export function restError(thrown: unknown, logger?: Logger, status?: number): RestErrorResponse {
  const error = A2AError.from(thrown);
  if (logger) logFailure(logger, error);
  const httpStatus = status ?? ERROR_TABLE[error.code].http;
  const body = toHttpErrorBody(error);
  return { status: httpStatus, body: { error: { ...body.error, code: httpStatus } }, headers: errorHeaders(httpStatus, error) };
}

/** Logs a failure at the level it deserves: our bugs as errors, client mistakes as debug. */
export function logFailure(logger: Logger, error: A2AError): void {
  if (error.code === A2AErrorCode.Internal || error.code === A2AErrorCode.InvalidAgentResponse) {
    logger.error('REST call failed', { code: error.code, message: error.message, error: error.cause ?? error });
  } else {
    logger.debug('REST call rejected', { code: error.code, message: error.message });
  }
}
