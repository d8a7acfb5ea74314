import { fromJsonRpcError } from '@a2a-polyglot/core';
import { StreamResponse } from '@a2a-polyglot/model';
import * as v03 from '@a2a-polyglot/model/v03';
import { streamResponseToV1, V03_REST_ROUTES, v03Operation } from '@a2a-polyglot/v03/proto';
import { isRecord } from '../http.js';
import type { RestDialect } from './rest-dialect.js';
import { fromV03Answer, notInV03 } from './v03.js';

/** A bare v0.3 error body `{code, message, data?}` (spec §12.3), read by its v0.3 JSON-RPC code. */
function v03Error(json: unknown) {
  return isRecord(json) && typeof json.code === 'number' ? fromJsonRpcError(json) : undefined;
}

/**
 * A2A v0.3 over REST, for v0.3 servers (spec §12.1, §6.3, §0 item 16): routes under
 * `{url}/v1/`, bodies and answers in the ProtoJSON of `a2a.v1`, translated by the
 * `@a2a-polyglot/v03/proto` converters (SendMessage carries `blocking` explicitly); errors are a
 * bare `{code, message, data}` with the v0.3 JSON-RPC code, in a body or an `event: error`.
 */
export const V03_REST: RestDialect = {
  wire: 'v03',
  bodyType: 'application/json',
  accept: 'application/json',
  request(op, request, verb) {
    const operation = v03Operation(op.name);
    const route = V03_REST_ROUTES[op.name];
    if (!operation || !route) throw notInV03(op.name);
    const r = route(request, operation.toV03(request));
    const query = new URLSearchParams(r.query ?? {}).toString();
    return { verb: verb ?? r.verb, path: query ? `${r.path}?${query}` : r.path, body: r.body === undefined ? undefined : JSON.stringify(r.body) };
  },
  result(op, json, what) {
    const operation = v03Operation(op.name);
    const v03Response = operation?.response;
    const v1Response = op.response;
    if (!operation || !v03Response || !v1Response) return json;
    return fromV03Answer(what, () => v1Response.toJSON(operation.toV1(v03Response.fromJSON(json))));
  },
  event: (json, what) => fromV03Answer(what, () => StreamResponse.toJSON(streamResponseToV1(v03.StreamResponse.fromJSON(json)))),
  error: (_status, json) => v03Error(json),
  streamError: (json) => v03Error(json),
};
