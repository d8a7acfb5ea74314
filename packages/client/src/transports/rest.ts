import { A2AError, A2AErrorCode, codeFromReason, fromHttpError, type OperationName, type StreamOperation, type UnaryOperation } from '@a2a-polyglot/core';
import { decodeStreamEvent, decodeUnaryResult } from '../decode.js';
import { notA2A } from '../failures.js';
import { callHeaders, describeBody, isJsonMedia, isRecord, mediaType, openHttp, readText, tryParseJson, type OpenHttp } from '../http.js';
import { isV03Interface } from '../select-interface.js';
import { readOpenSse, seqOf } from '../sse.js';
import type { CallOptions, ClientEvent, StreamOptions, Transport, TransportFactory } from '../transport.js';
import { V1_REST, type RestDialect, type RestRequest, type Verb } from './rest-dialect.js';
import { V03_REST } from './rest-v03.js';

export { restRequest, type RestRequest } from './rest-dialect.js';

/**
 * The HTTP+JSON (REST) binding, client side. SubscribeToTask is POSTed as the spec prose and
 * the SDK clients do, and retried with GET (the proto's verb) when a server answers 404 or
 * 405 without an A2A error (spec §0 item 8); the verb that worked is remembered. The dialect
 * decides the generation spoken (v1.0, or v0.3 for v0.3 interfaces). Uses only fetch, so it
 * runs in browsers.
 */
export class RestTransport implements Transport {
  readonly binding = 'HTTP+JSON' as const;
  private readonly base: string;
  private subscribeVerb: Verb = 'POST';

  constructor(
    url: string,
    private readonly fetchImpl: typeof fetch = (...args) => globalThis.fetch(...args),
    private readonly dialect: RestDialect = V1_REST,
  ) {
    this.base = url.replace(/\/+$/, '');
  }

  async unary<Req, Res>(op: UnaryOperation<Req, Res>, request: Req, options: CallOptions = {}): Promise<Res> {
    const rest = this.dialect.request(op, request);
    const { open, what } = await this.send(op.name, rest, options, this.dialect.accept);
    const text = await readText(open, this.base);
    if (!open.response.ok) throw this.error(open.response, text, what);
    if (!op.response) return undefined as Res;
    const type = mediaType(open.response);
    const json = isJsonMedia(type) || type === '' ? tryParseJson(text) : undefined;
    if (json === undefined) throw notA2A(`${what} answered HTTP ${open.response.status} (${describeBody(type, text)}), not A2A JSON`);
    return decodeUnaryResult(op as UnaryOperation<unknown, Res>, this.dialect.result(op, json, what));
  }

  stream<Req>(op: StreamOperation<Req>, request: Req, options: StreamOptions = {}): AsyncIterable<ClientEvent> {
    return { [Symbol.asyncIterator]: () => this.openStream(op, request, options) };
  }

  async close(): Promise<void> {
    // Stateless: fetch owns the connections.
  }

  private async *openStream<Req>(op: StreamOperation<Req>, request: Req, options: StreamOptions): AsyncGenerator<ClientEvent> {
    const resume: Record<string, string> = options.resumeAfterSeq === undefined ? {} : { 'Last-Event-ID': String(options.resumeAfterSeq) };
    const callOptions = { ...options, headers: { ...options.headers, ...resume } };
    const subscribe = op.name === 'SubscribeToTask';
    let { open, what } = await this.send(
      op.name,
      this.dialect.request(op, request, subscribe ? this.subscribeVerb : undefined),
      callOptions,
      'text/event-stream',
    );
    if (subscribe && this.subscribeVerb === 'POST' && (await this.verbRefused(open))) {
      this.subscribeVerb = 'GET';
      ({ open, what } = await this.send(op.name, this.dialect.request(op, request, 'GET'), callOptions, 'text/event-stream'));
    }
    const type = mediaType(open.response);
    if (!open.response.ok || type !== 'text/event-stream') {
      const text = await readText(open, this.base);
      if (!open.response.ok) throw this.error(open.response, text, what);
      throw notA2A(`${what} answered ${type || 'no content type'} instead of an event stream`);
    }
    open.settle();
    for await (const message of readOpenSse(open, { idleTimeoutMs: options.idleTimeoutMs, what })) {
      const data = tryParseJson(message.data);
      const failure = this.dialect.streamError(data);
      if (failure) throw failure;
      if (message.event === 'error') throw new A2AError(A2AErrorCode.InvalidAgentResponse, `${what}: the stream reported an error without details`);
      if (data === undefined) throw new A2AError(A2AErrorCode.InvalidAgentResponse, `${what}: a stream event is not JSON`);
      yield { seq: seqOf(message), event: decodeStreamEvent(this.dialect.event(data, what)) };
    }
  }

  /** True (and the response is released) when a POST to `:subscribe` was refused as a route, not as an A2A error. */
  private async verbRefused(open: OpenHttp): Promise<boolean> {
    const status = open.response.status;
    if (status !== 404 && status !== 405) return false;
    const text = await readText(open, this.base);
    const reason = reasonOf(tryParseJson(text));
    if (status === 405 || reason === undefined || reason === 'METHOD_NOT_FOUND') return true;
    // A real A2A error (TASK_NOT_FOUND): surface it.
    throw fromHttpError(status, tryParseJson(text));
  }

  private async send(name: OperationName, rest: RestRequest, options: CallOptions, accept: string): Promise<{ open: OpenHttp; what: string }> {
    const url = `${this.base}${rest.path}`;
    const what = `${name} (${rest.verb} ${url.split('?')[0]})`;
    const own: Record<string, string> = { Accept: accept };
    if (rest.body !== undefined) own['Content-Type'] = this.dialect.bodyType;
    const headers = callHeaders(options.headers, own, this.dialect.wire);
    const open = await openHttp(this.fetchImpl, {
      url,
      method: rest.verb,
      headers,
      body: rest.body,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      what,
    });
    return { open, what };
  }

  /** The A2AError of a non-2xx answer: the dialect's error body when there is one (spec §11.6, §12.3). */
  private error(response: Response, text: string, what: string): A2AError {
    const error = this.dialect.error(response.status, tryParseJson(text));
    if (error) return error;
    if ([401, 403, 413, 429, 503, 504].includes(response.status)) return fromHttpError(response.status, undefined);
    return notA2A(`${what} answered HTTP ${response.status} (${describeBody(mediaType(response), text)}), not an A2A error`);
  }
}

function reasonOf(json: unknown): string | undefined {
  if (!isRecord(json) || !isRecord(json.error) || !Array.isArray(json.error.details)) return undefined;
  for (const detail of json.error.details) {
    if (isRecord(detail) && typeof detail.reason === 'string' && codeFromReason(detail.reason)) return detail.reason;
  }
  return undefined;
}

/** {@link TransportFactory} of the HTTP+JSON binding: v1.0, or v0.3 for an interface marked `protocolVersion` 0.3. */
export const restTransportFactory: TransportFactory = ({ agentInterface, fetch }) =>
  new RestTransport(agentInterface.url, fetch, isV03Interface(agentInterface) ? V03_REST : V1_REST);
