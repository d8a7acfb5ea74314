import { A2AError, A2AErrorCode, ERROR_TABLE, type Logger, toHttpErrorBody } from '@a2a-polyglot/core';

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
  return { status: httpStatus, body: { error: { ...body.error, code: httpStatus } }, headers: errorHeaders(httpStatus) };
}

/** Headers an error status needs on every REST generation: a challenge on 401, no keep-alive after a 413. */
export function errorHeaders(status: number): Record<string, string> {
  const headers: Record<string, string> = {};
  if (status === 401) headers['www-authenticate'] = 'Bearer';
  if (status === 413) headers.connection = 'close';
  return headers;
}

/** Logs a failure at the level it deserves: our bugs as errors, client mistakes as debug. */
export function logFailure(logger: Logger, error: A2AError): void {
  if (error.code === A2AErrorCode.Internal || error.code === A2AErrorCode.InvalidAgentResponse) {
    logger.error({ code: error.code, message: error.message, err: error.cause ?? error }, 'REST call failed');
  } else {
    logger.debug({ code: error.code, message: error.message }, 'REST call rejected');
  }
}
