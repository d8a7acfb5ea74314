import { fromHttpError } from '@a2a-polyglot/core';
import {
  DEFAULT_HEADERS,
  DriverFailure,
  failed,
  mergeHeaders,
  toDriverError,
  type Binding,
  type CallOptions,
  type CallResult,
  type OpenResult,
  type ProbeKind,
} from '../driver.js';
import type { SseEvent } from '../sse.js';
import { mediaTypeOf, openSseStream, parseData, readJson, seqOf, WIRE_VIOLATION, wireViolation } from './http-common.js';
import { HttpDriver, startHttpDriver } from './http-driver.js';

/** How one operation maps onto HTTP (spec §4 table): verb, path with `{field}` slots, body or query. */
interface Route {
  readonly verb: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  /** POST routes send the remaining fields as the body; SubscribeToTask sends none. */
  readonly body: boolean;
}

const ROUTES: Readonly<Record<string, Route>> = {
  SendMessage: { verb: 'POST', path: '/message:send', body: true },
  SendStreamingMessage: { verb: 'POST', path: '/message:stream', body: true },
  GetTask: { verb: 'GET', path: '/tasks/{id}', body: false },
  ListTasks: { verb: 'GET', path: '/tasks', body: false },
  CancelTask: { verb: 'POST', path: '/tasks/{id}:cancel', body: true },
  SubscribeToTask: { verb: 'POST', path: '/tasks/{id}:subscribe', body: false },
  CreateTaskPushNotificationConfig: { verb: 'POST', path: '/tasks/{taskId}/pushNotificationConfigs', body: true },
  GetTaskPushNotificationConfig: { verb: 'GET', path: '/tasks/{taskId}/pushNotificationConfigs/{id}', body: false },
  ListTaskPushNotificationConfigs: { verb: 'GET', path: '/tasks/{taskId}/pushNotificationConfigs', body: false },
  DeleteTaskPushNotificationConfig: { verb: 'DELETE', path: '/tasks/{taskId}/pushNotificationConfigs/{id}', body: false },
  GetExtendedAgentCard: { verb: 'GET', path: '/extendedAgentCard', body: false },
};

/** JSON media types a REST answer may use (v1.0.1 prefers `application/a2a+json`). */
const JSON_TYPES = new Set(['application/a2a+json', 'application/json']);

/**
 * The HTTP+JSON (REST) driver, written from the spec alone (§3.4, §4): path-bound fields go
 * into the path (and a non-empty `tenant` becomes a `/{tenant}` prefix), the rest into the
 * body (POST) or the query string (GET/DELETE); errors are HTTP statuses with a
 * `{"error": google.rpc.Status}` body read back through the ErrorInfo reason (core
 * `fromHttpError`); streams are SSE with `data: <StreamResponse>`, `id: <seq>` and
 * `event: error` for a mid-stream failure.
 */
export class RestDriver extends HttpDriver {
  readonly binding = 'rest';

  async call(operation: string, request: unknown, options?: CallOptions): Promise<CallResult> {
    try {
      return await unaryAnswer(await this.send(operation, request, options));
    } catch (error) {
      return failed(error);
    }
  }

  open(operation: string, request: unknown, options?: CallOptions): Promise<OpenResult> {
    return openSseStream(operation, options, (o, signal) => this.send(operation, request, o, signal), streamItem, unaryAnswer);
  }

  async probe(kind: ProbeKind): Promise<CallResult> {
    try {
      if (kind === 'unknown-method') return await unaryAnswer(await this.fetch('GET', '/no-such-operation', undefined, undefined));
      return await unaryAnswer(await this.fetch('POST', '/message:send', '{"message": {', undefined));
    } catch (error) {
      return failed(error);
    }
  }

  /** Spreads the request JSON over path, query and body per the operation's route, and sends it. */
  private send(operation: string, request: unknown, options: CallOptions | undefined, signal?: AbortSignal): Promise<Response> {
    const route = ROUTES[operation];
    if (!route) throw new Error(`the REST driver has no route for ${operation}`);
    const fields: Record<string, unknown> = { ...((request ?? {}) as Record<string, unknown>) };
    let path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = fields[name];
      delete fields[name];
      return encodeURIComponent(typeof value === 'string' ? value : '');
    });
    if (typeof fields.tenant === 'string' && fields.tenant !== '') path = `/${encodeURIComponent(fields.tenant)}${path}`;
    delete fields.tenant;
    if (route.body) return this.fetch(route.verb, path, JSON.stringify(fields), options, signal);
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) {
      for (const v of Array.isArray(value) ? value : [value]) query.append(key, typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
    const qs = query.toString();
    return this.fetch(route.verb, qs ? `${path}?${qs}` : path, undefined, options, signal);
  }

  private fetch(verb: string, path: string, body: string | undefined, options: CallOptions | undefined, signal?: AbortSignal): Promise<Response> {
    const defaults: Record<string, string> = { ...DEFAULT_HEADERS };
    if (body !== undefined) defaults['Content-Type'] = 'application/a2a+json';
    return this.transport(`${this.baseUrl}${path}`, { method: verb, headers: mergeHeaders(defaults, options?.headers), body, signal });
  }
}

/** Reads a unary REST answer: 2xx with a JSON body (204: none), or an error status with a Status body. */
async function unaryAnswer(res: Response): Promise<CallResult> {
  const body = await readJson(res);
  if ('invalid' in body) return wireViolation(body.invalid);
  if (body.json !== undefined && !JSON_TYPES.has(mediaTypeOf(res))) return wireViolation(`content-type ${res.headers.get('content-type')} is not JSON`);
  if (res.ok) return { ok: true, result: body.json ?? null };
  const status = (body.json as { error?: { code?: unknown; details?: unknown } } | undefined)?.error;
  if (!status) return wireViolation(`HTTP ${res.status} without an {"error": Status} body`);
  if (status.code !== res.status) return wireViolation(`error.code ${String(status.code)} differs from HTTP status ${res.status}`);
  return { ok: false, error: toDriverError(fromHttpError(res.status, body.json)) };
}

/** One SSE event of a REST stream: a bare StreamResponse, or `event: error` with a Status body. */
function streamItem(event: SseEvent): { seq: number | undefined; event: unknown } {
  const data = parseData(event);
  if (event.event === 'error') {
    const code = (data as { error?: { code?: unknown } })?.error?.code;
    throw fromHttpError(typeof code === 'number' ? code : 500, data);
  }
  if (event.event !== undefined && event.event !== 'message') throw new DriverFailure(WIRE_VIOLATION, `unexpected SSE event type ${event.event}`);
  return { seq: seqOf(event), event: data };
}

/** The REST binding: a fresh `@a2a-polyglot/server`, REST under `${url}/a2a`. */
export const restBinding: Binding = {
  name: 'rest',
  start: (handler) => startHttpDriver(handler, (baseUrl, cardUrl, close) => new RestDriver(baseUrl, cardUrl, close)),
};

/** The same driver against the fetch-standard handler (`createA2AFetchHandler`), in process. */
export const restFetchBinding: Binding = {
  name: 'rest-fetch',
  start: (handler) => startHttpDriver(handler, (baseUrl, cardUrl, close) => new RestDriver(baseUrl, cardUrl, close), 'fetch'),
};

/** The same driver against the AWS Lambda response-streaming handler, in process. */
export const restLambdaBinding: Binding = {
  name: 'rest-lambda',
  start: (handler) => startHttpDriver(handler, (baseUrl, cardUrl, close) => new RestDriver(baseUrl, cardUrl, close), 'lambda'),
};
