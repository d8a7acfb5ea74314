import { A2AError, ERROR_TABLE, type ErrorDetailJson, type Logger, logFailure } from '@a2a-polyglot/core';
import { toV03JsonRpcError } from '@a2a-polyglot/v03/json';
import { errorHeaders } from '@a2a-polyglot/http';
import type { RestErrorResponse } from './errors.js';

/**
 * The body of a v0.3 REST error: the v0.3 JSON-RPC error object, bare (a2a-js compat layer),
 * the same one v0.3 JSON-RPC answers with: `data` (free-form in v0.3) carries the ErrorInfo and
 * BadRequest details, so clients that know them read the precise reason and the invalid fields.
 */
export interface V03RestErrorBody {
  readonly code: number;
  readonly message: string;
  readonly data: readonly ErrorDetailJson[];
}

/**
 * Maps anything thrown to a v0.3 REST error through core's one table: `code` is the v0.3
 * JSON-RPC code (what v0.3 REST clients switch on), the status the table's HTTP column, as on
 * v1.0 (so an unknown route is 404 in both generations, where the a2a-js compat layer answered
 * 501); `status` overrides it for HTTP-only failures (405, 415).
 */
export function v03RestError(thrown: unknown, logger?: Logger, status?: number): RestErrorResponse<V03RestErrorBody> {
  const error = A2AError.from(thrown);
  if (logger) logFailure(logger, error, 'REST call');
  const httpStatus = status ?? ERROR_TABLE[error.code].http;
  return { status: httpStatus, body: toV03JsonRpcError(error), headers: errorHeaders(httpStatus, error) };
}
