import { A2AError, ERROR_TABLE, type FieldViolation, type Logger } from '@a2a-polyglot/core';
import { errorHeaders, logFailure, type RestErrorResponse } from './errors.js';

/** The body of a v0.3 REST error: the v0.3 JSON-RPC error object, bare (a2a-js compat layer). */
export interface V03RestErrorBody {
  readonly code: number;
  readonly message: string;
  readonly data?: { readonly fieldViolations: readonly FieldViolation[] };
}

/**
 * Maps anything thrown to a v0.3 REST error through core's one table: `code` is the v0.3
 * JSON-RPC code (what v0.3 REST clients switch on), the status the v1.0 HTTP column unless
 * the v0.3 column says otherwise (501 for an unknown route); `status` overrides both for
 * HTTP-only failures (405, 415). Invalid fields travel in `data.fieldViolations`.
 */
export function v03RestError(thrown: unknown, logger?: Logger, status?: number): RestErrorResponse<V03RestErrorBody> {
  const error = A2AError.from(thrown);
  if (logger) logFailure(logger, error);
  const row = ERROR_TABLE[error.code];
  const httpStatus = status ?? row.v03.http ?? row.http;
  const data = error.fieldViolations.length > 0 ? { data: { fieldViolations: error.fieldViolations } } : {};
  return { status: httpStatus, body: { code: row.v03.jsonRpc, message: error.message, ...data }, headers: errorHeaders(httpStatus) };
}
