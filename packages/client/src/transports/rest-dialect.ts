import { A2AError, A2AErrorCode, fromHttpError, type OperationName } from '@a2a-polyglot/core';
import { isRecord } from '../http.js';
import type { MessageFns } from '@a2a-polyglot/model';

/** What a REST dialect needs of an operation: its name and request codec. */
export interface RestOperation {
  readonly name: OperationName;
  readonly request: MessageFns<unknown>;
  readonly response?: MessageFns<unknown>;
}

/**
 * How one generation of A2A spells the REST binding; the transport (HTTP, SSE, the subscribe
 * verb fallback) is the same for both. Requests start, and answers end, as v1.0 JSON, so the
 * one v1.0 decoder reads every answer.
 */
export interface RestDialect {
  /** Which headers the calls carry (`A2A-Version: 1.0`, or none and `X-A2A-Extensions`). */
  readonly wire: 'v1' | 'v03';
  /** Content type of request bodies. */
  readonly bodyType: string;
  /** `Accept` of unary calls. */
  readonly accept: string;
  /** The route of a decoded request; `verb` overrides the route's (the subscribe fallback). */
  request(op: RestOperation, request: unknown, verb?: Verb): RestRequest;
  /** A unary answer's JSON body as v1.0 JSON of the operation's response. */
  result(op: RestOperation, json: unknown, what: string): unknown;
  /** One stream event's `data:` as v1.0 StreamResponse JSON. */
  event(json: unknown, what: string): unknown;
  /** The A2AError of an error body, or undefined when the body is not an error of this generation. */
  error(status: number, json: unknown): A2AError | undefined;
  /** The A2AError an SSE event carries instead of a StreamResponse, if it is one. */
  streamError(json: unknown): A2AError | undefined;
}

/** The HTTP methods of the REST routes. */
export type Verb = 'GET' | 'POST' | 'DELETE';

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

/** A2A v1.0 REST (spec §3.4): the routes above, ProtoJSON bodies, `{"error": Status}` errors. */
export const V1_REST: RestDialect = {
  wire: 'v1',
  bodyType: 'application/a2a+json',
  // Media types a REST answer may have (spec §3.1: `application/a2a+json`, older servers `application/json`).
  accept: 'application/a2a+json, application/json',
  request: (op, request, verb) => restRequest(op.name, op.request.toJSON(request), verb),
  result: (_op, json) => json,
  event: (json) => json,
  error: (status, json) => (isRecord(json) && isRecord(json.error) ? fromHttpError(status, json) : undefined),
  // An `event: error` (a2a-js practice; spec leaves it open, A2A #1262) carries `{"error": Status}`.
  streamError: (json) => {
    if (!isRecord(json) || !isRecord(json.error) || Object.keys(json).length !== 1) return undefined;
    return fromHttpError(typeof json.error.code === 'number' ? json.error.code : 500, json);
  },
};
