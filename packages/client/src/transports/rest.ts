import { A2AError, A2AErrorCode, codeFromReason, fromHttpError, type OperationName, type StreamOperation, type UnaryOperation } from '@a2a-polyglot/core';
import { decodeStreamEvent, decodeUnaryResult } from '../decode.js';
import { notA2A } from '../failures.js';
import { callHeaders, describeBody, isJsonMedia, mediaType, openHttp, readText, tryParseJson, type OpenHttp } from '../http.js';
import { readOpenSse, seqOf } from '../sse.js';
import type { CallOptions, ClientEvent, StreamOptions, Transport, TransportFactory } from '../transport.js';

type Verb = 'GET' | 'POST' | 'DELETE';

/** Verb and path pattern of each operation (spec §4); `{field}` segments come from the request. */
const ROUTES: Readonly<Record<OperationName, { verb: Verb; pattern: string }>> = {
  SendMessage: { verb: 'POST', pattern: '/message:send' },
  SendStreamingMessage: { verb: 'POST', pattern: '/message:stream' },
  GetTask: { verb: 'GET', pattern: '/tasks/{id}' },
  ListTasks: { verb: 'GET', pattern: '/tasks' },
  CancelTask: { verb: 'POST', pattern: '/tasks/{id}:cancel' },
  SubscribeToTask: { verb: 'POST', pattern: '/tasks/{id}:subscribe' },
  CreateTaskPushNotificationConfig: { verb: 'POST', pattern: '/tasks/{taskId}/pushNotificationConfigs' },
  GetTaskPushNotificationConfig: { verb: 'GET', pattern: '/tasks/{taskId}/pushNotificationConfigs/{id}' },
  ListTaskPushNotificationConfigs: { verb: 'GET', pattern: '/tasks/{taskId}/pushNotificationConfigs' },
  DeleteTaskPushNotificationConfig: { verb: 'DELETE', pattern: '/tasks/{taskId}/pushNotificationConfigs/{id}' },
  GetExtendedAgentCard: { verb: 'GET', pattern: '/extendedAgentCard' },
};

/** Media types a REST answer may have (spec §3.1: `application/a2a+json`, older servers `application/json`). */
const ACCEPT_JSON = 'application/a2a+json, application/json';

/** One REST request: where it goes and what it carries. */
export interface RestRequest {
  readonly verb: Verb;
  /** Path relative to the interface URL, tenant prefix and query included. */
  readonly path: string;
  readonly body?: string;
}

/**
 * Maps a request message onto the REST wire (spec §3.4): path fields and the tenant (as the
 * `/{tenant}` prefix) leave the message; GET/DELETE put the remaining fields in the query
 * string, POST sends them as the JSON body.
 */
export function restRequest(name: OperationName, json: unknown, verb: Verb = ROUTES[name].verb): RestRequest {
  const fields: Record<string, unknown> = { ...(json as Record<string, unknown>) };
  const tenant = typeof fields.tenant === 'string' ? fields.tenant : '';
  delete fields.tenant;
  let path = ROUTES[name].pattern.replace(/\{(\w+)\}/g, (_, field: string) => {
    const value = fields[field];
    delete fields[field];
    if (typeof value !== 'string' || value === '') {
      throw new A2AError(A2AErrorCode.InvalidParams, `${name}: ${field} is required`, { fieldViolations: [{ field, description: 'is required' }] });
    }
    return encodeURIComponent(value);
  });
  if (tenant) path = `/${encodeURIComponent(tenant)}${path}`;
  if (verb === 'POST') return { verb, path, body: JSON.stringify(fields) };
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === 'object' && item !== null) throw new A2AError(A2AErrorCode.InvalidParams, `${name}: ${key} cannot be sent in a query string`);
      query.append(key, String(item));
    }
  }
  const qs = query.toString();
  return { verb, path: qs ? `${path}?${qs}` : path };
}

/**
 * The HTTP+JSON (REST) binding, client side. SubscribeToTask is POSTed as the spec prose and
 * the SDK clients do, and retried with GET (the proto's verb) when a server answers 404 or
 * 405 without an A2A error (spec §0 item 8); the verb that worked is remembered. Uses only
 * fetch, so it runs in browsers.
 */
export class RestTransport implements Transport {
  readonly binding = 'HTTP+JSON' as const;
  private readonly base: string;
  private subscribeVerb: Verb = 'POST';

  constructor(
    url: string,
    private readonly fetchImpl: typeof fetch = (...args) => globalThis.fetch(...args),
  ) {
    this.base = url.replace(/\/+$/, '');
  }

  async unary<Req, Res>(op: UnaryOperation<Req, Res>, request: Req, options: CallOptions = {}): Promise<Res> {
    const rest = restRequest(op.name, op.request.toJSON(request));
    const { open, what } = await this.send(op.name, rest, options, ACCEPT_JSON);
    const text = await readText(open, this.base);
    if (!open.response.ok) throw this.error(open.response, text, what);
    if (!op.response) return undefined as Res;
    const type = mediaType(open.response);
    const json = isJsonMedia(type) || type === '' ? tryParseJson(text) : undefined;
    if (json === undefined) throw notA2A(`${what} answered HTTP ${open.response.status} (${describeBody(type, text)}), not A2A JSON`);
    return decodeUnaryResult(op as UnaryOperation<unknown, Res>, json);
  }

  stream<Req>(op: StreamOperation<Req>, request: Req, options: StreamOptions = {}): AsyncIterable<ClientEvent> {
    return { [Symbol.asyncIterator]: () => this.openStream(op, request, options) };
  }

  async close(): Promise<void> {
    // Stateless: fetch owns the connections.
  }

  private async *openStream<Req>(op: StreamOperation<Req>, request: Req, options: StreamOptions): AsyncGenerator<ClientEvent> {
    const json = op.request.toJSON(request);
    const resume: Record<string, string> = options.resumeAfterSeq === undefined ? {} : { 'Last-Event-ID': String(options.resumeAfterSeq) };
    const callOptions = { ...options, headers: { ...options.headers, ...resume } };
    const subscribe = op.name === 'SubscribeToTask';
    let { open, what } = await this.send(op.name, restRequest(op.name, json, subscribe ? this.subscribeVerb : undefined), callOptions, 'text/event-stream');
    if (subscribe && this.subscribeVerb === 'POST' && (await this.verbRefused(open))) {
      this.subscribeVerb = 'GET';
      ({ open, what } = await this.send(op.name, restRequest(op.name, json, 'GET'), callOptions, 'text/event-stream'));
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
      if (message.event === 'error' || (isRecord(data) && isRecord(data.error) && Object.keys(data).length === 1)) {
        throw this.streamError(data, what);
      }
      if (data === undefined) throw new A2AError(A2AErrorCode.InvalidAgentResponse, `${what}: a stream event is not JSON`);
      yield { seq: seqOf(message), event: decodeStreamEvent(data) };
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
    if (rest.body !== undefined) own['Content-Type'] = 'application/a2a+json';
    const headers = callHeaders(options.headers, own);
    const open = await openHttp(this.fetchImpl, { url, method: rest.verb, headers, body: rest.body, signal: options.signal, timeoutMs: options.timeoutMs, what });
    return { open, what };
  }

  /** The A2AError of a non-2xx answer: the `{"error": Status}` body when there is one (spec §11.6). */
  private error(response: Response, text: string, what: string): A2AError {
    const json = tryParseJson(text);
    if (isRecord(json) && isRecord(json.error)) return fromHttpError(response.status, json);
    if ([401, 403, 413, 429, 503, 504].includes(response.status)) return fromHttpError(response.status, undefined);
    return notA2A(`${what} answered HTTP ${response.status} (${describeBody(mediaType(response), text)}), not an A2A error`);
  }

  /** An `event: error` in a REST stream (a2a-js practice; spec leaves it open, A2A #1262). */
  private streamError(data: unknown, what: string): A2AError {
    if (isRecord(data) && isRecord(data.error)) {
      const status = typeof data.error.code === 'number' ? data.error.code : 500;
      return fromHttpError(status, data);
    }
    return new A2AError(A2AErrorCode.InvalidAgentResponse, `${what}: the stream reported an error without details`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function reasonOf(json: unknown): string | undefined {
  if (!isRecord(json) || !isRecord(json.error) || !Array.isArray(json.error.details)) return undefined;
  for (const detail of json.error.details) {
    if (isRecord(detail) && typeof detail.reason === 'string' && codeFromReason(detail.reason)) return detail.reason;
  }
  return undefined;
}

/** {@link TransportFactory} of the HTTP+JSON binding. */
export const restTransportFactory: TransportFactory = ({ agentInterface, fetch }) => new RestTransport(agentInterface.url, fetch);
