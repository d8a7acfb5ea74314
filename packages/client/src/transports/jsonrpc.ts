import { A2AError, A2AErrorCode, fromHttpError, fromJsonRpcError, type OperationName, type StreamOperation, type UnaryOperation } from '@a2a-polyglot/core';
import { decodeStreamEvent, decodeUnaryResult } from '../decode.js';
import { notA2A } from '../failures.js';
import { callHeaders, describeBody, isJsonMedia, isRecord, mediaType, openHttp, readText, tryParseJson, type OpenHttp } from '../http.js';
import { isV03Interface } from '../select-interface.js';
import { readOpenSse, seqOf } from '../sse.js';
import type { CallOptions, ClientEvent, StreamOptions, Transport, TransportFactory } from '../transport.js';
import { V1_JSONRPC, type JsonRpcDialect } from './jsonrpc-dialect.js';
import { V03_JSONRPC } from './jsonrpc-v03.js';

/**
 * The JSON-RPC 2.0 binding, client side (spec §3.3): every call is a POST of one envelope to
 * the interface URL; streams come back as SSE whose `data:` lines are JSON-RPC responses.
 * The dialect decides the generation spoken (v1.0, or v0.3 for v0.3 interfaces); envelopes,
 * SSE and errors are handled here once for both. Uses only fetch, so it runs in browsers.
 */
export class JsonRpcTransport implements Transport {
  readonly binding = 'JSONRPC' as const;
  private nextId = 1;

  constructor(
    private readonly url: string,
    private readonly fetchImpl: typeof fetch = (...args) => globalThis.fetch(...args),
    private readonly dialect: JsonRpcDialect = V1_JSONRPC,
  ) {}

  async unary<Req, Res>(op: UnaryOperation<Req, Res>, request: Req, options: CallOptions = {}): Promise<Res> {
    const { open, id, what } = await this.post(op.name, op.request.toJSON(request), options, 'application/json', options.timeoutMs);
    const text = await readText(open, this.url);
    const envelope = this.envelope(open.response, text, what);
    if (envelope.error !== undefined) throw fromJsonRpcError(envelope.error as Record<string, unknown>);
    checkId(envelope, id, what);
    return decodeUnaryResult(op as UnaryOperation<unknown, Res>, this.dialect.result(op.name, envelope.result, what));
  }

  stream<Req>(op: StreamOperation<Req>, request: Req, options: StreamOptions = {}): AsyncIterable<ClientEvent> {
    return { [Symbol.asyncIterator]: () => this.openStream(op, request, options) };
  }

  async close(): Promise<void> {
    // Stateless: fetch owns the connections.
  }

  private async *openStream<Req>(op: StreamOperation<Req>, request: Req, options: StreamOptions): AsyncGenerator<ClientEvent> {
    const resume: Record<string, string> = options.resumeAfterSeq === undefined ? {} : { 'Last-Event-ID': String(options.resumeAfterSeq) };
    const { open, what } = await this.post(
      op.name,
      op.request.toJSON(request),
      { ...options, headers: { ...options.headers, ...resume } },
      'text/event-stream',
      options.timeoutMs,
    );
    const type = mediaType(open.response);
    if (type !== 'text/event-stream') {
      // A pre-stream error comes back as plain JSON with HTTP 200 (spec §0 item 7).
      const text = await readText(open, this.url);
      const envelope = this.envelope(open.response, text, what);
      if (envelope.error !== undefined) throw fromJsonRpcError(envelope.error as Record<string, unknown>);
      throw notA2A(`${what} answered ${type || 'no content type'} instead of an event stream`);
    }
    open.settle();
    for await (const message of readOpenSse(open, { idleTimeoutMs: options.idleTimeoutMs, what })) {
      const envelope = tryParseJson(message.data);
      if (!isRecord(envelope)) throw new A2AError(A2AErrorCode.InvalidAgentResponse, `${what}: a stream event is not JSON`);
      if (envelope.error !== undefined) throw fromJsonRpcError(envelope.error as Record<string, unknown>);
      if (!('result' in envelope)) throw new A2AError(A2AErrorCode.InvalidAgentResponse, `${what}: a stream event has neither result nor error`);
      yield { seq: seqOf(message), event: decodeStreamEvent(this.dialect.result(op.name, envelope.result, what)) };
    }
  }

  private async post(
    operation: OperationName,
    json: unknown,
    options: CallOptions,
    accept: string,
    timeoutMs: number | undefined,
  ): Promise<{ open: OpenHttp; id: number; what: string }> {
    const { method, params } = this.dialect.request(operation, json);
    const id = this.nextId++;
    const what = `${method} at ${this.url}`;
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: params ?? {} });
    const headers = callHeaders(options.headers, { 'Content-Type': 'application/json', Accept: accept }, this.dialect.wire);
    const open = await openHttp(this.fetchImpl, { url: this.url, method: 'POST', headers, body, signal: options.signal, timeoutMs, what });
    return { open, id, what };
  }

  /** The JSON-RPC response envelope of a non-streaming answer, or a clear error for anything else. */
  private envelope(response: Response, text: string, what: string): Record<string, unknown> {
    const type = mediaType(response);
    const json = isJsonMedia(type) || type === '' ? tryParseJson(text) : undefined;
    if (isRecord(json) && json.jsonrpc === '2.0' && ('result' in json || 'error' in json)) {
      if (isRecord(json.error) || 'result' in json) return json;
    }
    // Not JSON-RPC: an HTTP-level error with a REST-style body (auth, size limits), or not A2A at all.
    if (isRecord(json) && isRecord(json.error) && !response.ok) throw fromHttpError(response.status, json);
    if (response.status === 401 || response.status === 403 || response.status === 429 || response.status === 503)
      throw fromHttpError(response.status, undefined);
    throw notA2A(`${what} answered HTTP ${response.status} (${describeBody(type, text)}), not a JSON-RPC response`);
  }
}

function checkId(envelope: Record<string, unknown>, id: number, what: string): void {
  if (envelope.id !== undefined && envelope.id !== null && envelope.id !== id && envelope.id !== String(id)) {
    throw new A2AError(A2AErrorCode.InvalidAgentResponse, `${what}: the response id ${JSON.stringify(envelope.id)} does not match the request id ${id}`);
  }
}

/** {@link TransportFactory} of the JSON-RPC binding: v1.0, or v0.3 for an interface marked `protocolVersion` 0.3. */
export const jsonRpcTransportFactory: TransportFactory = ({ agentInterface, fetch }) =>
  new JsonRpcTransport(agentInterface.url, fetch, isV03Interface(agentInterface) ? V03_JSONRPC : V1_JSONRPC);
