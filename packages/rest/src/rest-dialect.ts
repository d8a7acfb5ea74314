import { decodeJsonRequest, type DecodeRequestOptions, type Logger, OPERATIONS, type ProtocolVersion } from '@a2a-polyglot/core';
import type { StreamResponse } from '@a2a-polyglot/model';
import { buildRequestJson, encodeStreamData } from './codec.js';
import { restError, type RestErrorResponse } from './errors.js';
import { REST_CONTENT_TYPE } from './headers.js';
import { matchRoute, type RestRoute, type RouteMatch } from './routes.js';

/**
 * How one generation of A2A spells the REST binding (the server side of the client's
 * `RestDialect`): what it adds to the shared serving code of handler.ts (routing, body
 * reading, call context, streaming, error answers) is its route table, how a matched route's
 * path, query and body become the core's (v1.0) request, how answers, stream events and
 * errors are written, and the generation the call is decoded in (`CallContext.wireVersion`).
 */
export interface RestDialect<R extends RestRoute = RestRoute> {
  match(verb: string, path: string): RouteMatch<R>;
  /**
   * The core request of a matched route, validated (InvalidParams otherwise); unknown members
   * are ignored unless `options.strict`.
   */
  decode(route: R, params: Readonly<Record<string, string>>, query: URLSearchParams, body: unknown, options: DecodeRequestOptions): unknown;
  /** The response body of a unary answer. */
  encode(route: R, response: unknown, request: unknown): unknown;
  /**
   * `JSON.stringify` of {@link encode}'s value, when the dialect writes it directly (the
   * operation's `encodeJsonText`: SendMessage); undefined: the handler stringifies `encode`'s.
   */
  encodeText?(route: R, response: unknown, request: unknown): string | undefined;
  /** One SSE `data:` of a stream. */
  encodeEvent(event: StreamResponse): string;
  /** An error answer (status, body, headers); `status` overrides the table (405, 415). */
  error(thrown: unknown, logger?: Logger, status?: number): RestErrorResponse<unknown>;
  /** Content type of unary answers and error bodies when the client names none (see `responseMediaType`). */
  readonly contentType: string;
  /** Undefined for v1.0. */
  readonly wireVersion?: ProtocolVersion;
}

/** The v1.0 REST dialect: REST_ROUTES, requests in the ProtoJSON of `lf.a2a.v1`. */
export const V1_REST: RestDialect = {
  match: matchRoute,
  decode(route, params, query, body, options) {
    const op = OPERATIONS[route.operation];
    return decodeJsonRequest(op, buildRequestJson(op.requestType, params, query, body, route.verb !== 'POST', options), options);
  },
  encode(route, response, request) {
    const op = OPERATIONS[route.operation];
    return op.kind === 'unary' ? op.encodeJson(response, request) : undefined;
  },
  encodeText(route, response, request) {
    const op = OPERATIONS[route.operation];
    return op.kind === 'unary' ? op.encodeJsonText?.(response, request) : undefined;
  },
  encodeEvent: encodeStreamData,
  error: restError,
  contentType: REST_CONTENT_TYPE,
};
