import * as v03 from '@a2a-polyglot/model/v03';
import { streamResponseToV03 } from '@a2a-polyglot/v03/proto';
import { buildRequestJson } from './codec.js';
import type { RestDialect } from './rest-dialect.js';
import { v03RestError } from './v03-errors.js';
import { matchV03Route, type V03RestRoute } from './v03-routes.js';

/** Content type of v0.3 REST answers (v0.3 predates `application/a2a+json`). */
export const V03_REST_CONTENT_TYPE = 'application/json';

/**
 * The A2A v0.3 REST dialect, served by the shared REST handler code: v0.3 routes under `/v1/`,
 * request JSON (path resource names, query, body) validated strictly as the ProtoJSON of
 * `a2a.v1` by the model's validator, converted to the v1.0 request, run by the same core
 * operation with `wireVersion: '0.3'`, answered as `a2a.v1` ProtoJSON; SSE events are v0.3
 * StreamResponse JSON (`final` on status updates); errors bare `{code, message}`.
 */
export const V03_REST: RestDialect<V03RestRoute> = {
  match: matchV03Route,
  decode(route, params, query, body, options) {
    const json = buildRequestJson(route.requestType, route.pathFields(params), query, body, route.verb !== 'POST', options);
    return route.decode(json, params, options);
  },
  encode: (route, response) => route.encode(response),
  encodeEvent: (event) => JSON.stringify(v03.StreamResponse.toJSON(streamResponseToV03(event))),
  error: v03RestError,
  contentType: V03_REST_CONTENT_TYPE,
  wireVersion: '0.3',
};
