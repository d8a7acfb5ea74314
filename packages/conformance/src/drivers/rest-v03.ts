import { A2AError, fromJsonRpcError, operationByName, type Operation, type OperationName } from '@a2a-polyglot/core';
import { V03_REST_ROUTES, type V03RestRequest } from '@a2a-polyglot/v03/proto';
import * as v03 from '@a2a-polyglot/model/v03';
import { failed, mergeHeaders, toDriverError, type Binding, type CallOptions, type CallResult, type OpenResult, type ProbeKind } from '../driver.js';
import type { SseEvent } from '../sse.js';
import { mediaTypeOf, openSseStream, parseData, readJson, seqOf, wireViolation } from './http-common.js';
import { HttpDriver, startHttpDriver } from './http-driver.js';
import { unaryResultJson } from './unary-result.js';
import { v03EventToJson, v03Translation } from './v03-translate.js';

/**
 * The A2A v0.3 REST driver, as a v0.3 client calls it: routes under `/v1/` with no
 * `A2A-Version`, bodies and answers in the ProtoJSON of `a2a.v1` (converted from and to the
 * scenario's v1.0 JSON with @a2a-polyglot/v03), errors as a bare `{code, message}` whose v0.3
 * JSON-RPC code is read back to the A2A code, SSE `data:` = v0.3 StreamResponse JSON with
 * `event: error` for a mid-stream failure. Requests travel through typed messages, so (like
 * gRPC) it cannot carry a JSON member no proto field has: it declares `protobuf` requests.
 */
export class RestV03Driver extends HttpDriver {
  readonly binding = 'rest-v03';

  async call(operation: string, request: unknown, options?: CallOptions): Promise<CallResult> {
    try {
      const { op, decoded, res } = await this.send(operation, request, options);
      const answer = await unaryAnswer(res);
      if (!answer.ok) return answer;
      const t = v03Translation(operation);
      const v1 = t.response && answer.result !== null ? t.toV1(t.response.fromJSON(answer.result)) : undefined;
      return { ok: true, result: v1 === undefined ? null : unaryResultJson(op, v1, decoded) };
    } catch (error) {
      return failed(error);
    }
  }

  open(operation: string, request: unknown, options?: CallOptions): Promise<OpenResult> {
    return openSseStream(operation, options, async (o, signal) => (await this.send(operation, request, o, signal)).res, streamItem, unaryAnswer);
  }

  async probe(kind: ProbeKind): Promise<CallResult> {
    try {
      if (kind === 'unknown-method') return await unaryAnswer(await this.fetch({ verb: 'GET', path: '/v1/no-such-operation' }, undefined));
      return await unaryAnswer(await this.fetch({ verb: 'POST', path: '/v1/message:send' }, undefined, undefined, '{"message": {'));
    } catch (error) {
      return failed(error);
    }
  }

  private async send(
    operation: string,
    request: unknown,
    options: CallOptions | undefined,
    signal?: AbortSignal,
  ): Promise<{ op: Operation; decoded: unknown; res: Response }> {
    const op = operationByName(operation);
    const route = V03_REST_ROUTES[operation as OperationName];
    if (!route) throw new Error(`A2A v0.3 REST has no route for ${operation}`);
    const decoded = op.request.fromJSON(request ?? {});
    const res = await this.fetch(route(decoded, v03Translation(operation).toV03(decoded)), options, signal);
    return { op, decoded, res };
  }

  private fetch(req: V03RestRequest, options: CallOptions | undefined, signal?: AbortSignal, rawBody?: string): Promise<Response> {
    const body = rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
    const defaults: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' };
    const qs = new URLSearchParams(req.query ?? {}).toString();
    return this.transport(`${this.baseUrl}${req.path}${qs ? `?${qs}` : ''}`, {
      method: req.verb,
      headers: mergeHeaders(defaults, options?.headers),
      body,
      signal,
    });
  }
}

/** The A2AError of a v0.3 error body `{code, message, data}`: the ErrorInfo reason in `data` first, else the v0.3 JSON-RPC code. */
function v03Error(body: unknown, status: number): A2AError {
  const error = fromJsonRpcError((body ?? {}) as { code?: unknown; message?: unknown; data?: unknown });
  return typeof (body as { message?: unknown } | undefined)?.message === 'string' ? error : new A2AError(error.code, `HTTP ${status}`);
}

/** Reads a unary v0.3 REST answer: 2xx with a JSON body (204: none), or an error status with `{code, message}`. */
async function unaryAnswer(res: Response): Promise<CallResult> {
  const body = await readJson(res);
  if ('invalid' in body) return wireViolation(body.invalid);
  if (body.json !== undefined && mediaTypeOf(res) !== 'application/json')
    return wireViolation(`content-type ${res.headers.get('content-type')} is not application/json`);
  if (res.ok) return { ok: true, result: body.json ?? null };
  if (typeof (body.json as { code?: unknown } | undefined)?.code !== 'number') return wireViolation(`HTTP ${res.status} without a {code, message} body`);
  return { ok: false, error: toDriverError(v03Error(body.json, res.status)) };
}

/** One SSE event of a v0.3 REST stream: a v0.3 StreamResponse, or `event: error` with `{code, message}`. */
function streamItem(event: SseEvent): { seq: number | undefined; event: unknown } {
  const data = parseData(event);
  if (event.event === 'error') throw v03Error(data, 500);
  return { seq: seqOf(event), event: v03EventToJson(v03.StreamResponse.fromJSON(data)) };
}

/** The REST v0.3 binding: a fresh `@a2a-polyglot/server`, v0.3 REST under `${url}/a2a/v1`. */
export const restV03Binding: Binding = {
  name: 'rest-v03',
  requestEncoding: 'protobuf',
  protocolVersion: '0.3',
  start: (handler) => startHttpDriver(handler, (baseUrl, cardUrl, close) => new RestV03Driver(baseUrl, cardUrl, close)),
};
