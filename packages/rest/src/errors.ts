import { A2AError, ERROR_TABLE, type Logger, logFailure, toHttpErrorBody } from '@a2a-polyglot/core';
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
  if (logger) logFailure(logger, error, 'REST call');
  const httpStatus = status ?? ERROR_TABLE[error.code].http;
  const body = toHttpErrorBody(error);
  return { status: httpStatus, body: { error: { ...body.error, code: httpStatus } }, headers: errorHeaders(httpStatus, error) };
}
