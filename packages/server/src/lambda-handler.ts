/**
 * AWS Lambda adapters over the fetch-standard handler: API Gateway HTTP API (payload format
 * 2.0) and Lambda Function URL events, API Gateway v1 REST events, and Function URL response
 * streaming (`awslambda.streamifyResponse`). The event and result types are declared here
 * structurally (no dependency on `@types/aws-lambda`).
 */
import { PINNED_WEBHOOK_NETWORK } from '@a2a-polyglot/http';
import { type A2AFetchHandler, type A2AFetchHandlerOptions, createA2AFetchHandler } from './fetch-handler.js';
import { normalizeMountPath } from './options.js';

type HeaderMap = Readonly<Record<string, string | undefined>>;
type MultiValueMap = Readonly<Record<string, readonly string[] | undefined>>;

/** An API Gateway HTTP API (payload format 2.0) or Lambda Function URL event. */
export interface LambdaHttpEventV2 {
  readonly version: '2.0';
  readonly rawPath: string;
  readonly rawQueryString?: string;
  readonly headers?: HeaderMap;
  readonly cookies?: readonly string[];
  readonly body?: string | null;
  readonly isBase64Encoded?: boolean;
  readonly requestContext: {
    readonly domainName?: string;
    /** `$default` for Function URLs and the default stage; a named stage is part of `rawPath`. */
    readonly stage?: string;
    readonly http: { readonly method: string; readonly path?: string; readonly sourceIp?: string };
  };
}

/** An API Gateway v1 REST API (proxy integration) event. */
export interface LambdaRestEventV1 {
  readonly version?: '1.0';
  readonly httpMethod: string;
  /** The resource path, without the stage. */
  readonly path: string;
  readonly headers?: HeaderMap | null;
  readonly multiValueHeaders?: MultiValueMap | null;
  readonly queryStringParameters?: HeaderMap | null;
  readonly multiValueQueryStringParameters?: MultiValueMap | null;
  readonly body?: string | null;
  readonly isBase64Encoded?: boolean;
  readonly requestContext?: {
    readonly stage?: string;
    readonly domainName?: string;
    /** The path as the client sent it (with the stage, or a custom domain's base path). */
    readonly path?: string;
    readonly identity?: { readonly sourceIp?: string };
  };
}

export type LambdaHttpEvent = LambdaHttpEventV2 | LambdaRestEventV1;

/** The result of a payload format 2.0 invocation. */
export interface LambdaResultV2 {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly isBase64Encoded: boolean;
  readonly cookies?: string[];
}

/** The result of a v1 REST invocation. */
export interface LambdaResultV1 {
  readonly statusCode: number;
  readonly multiValueHeaders: Record<string, string[]>;
  readonly body: string;
  readonly isBase64Encoded: boolean;
}

/** A buffered Lambda handler: a v2 event gets a v2 result, a v1 REST event a v1 result. */
export interface A2ALambdaHandler {
  (event: LambdaHttpEventV2, context?: unknown): Promise<LambdaResultV2>;
  (event: LambdaRestEventV1, context?: unknown): Promise<LambdaResultV1>;
  (event: LambdaHttpEvent, context?: unknown): Promise<LambdaResultV2 | LambdaResultV1>;
}

/** The writable stream the Lambda runtime hands a streaming handler (a Node `Writable`). */
export interface LambdaResponseStream {
  write(chunk: Uint8Array | string): boolean;
  end(callback?: () => void): unknown;
  once(event: 'drain' | 'close' | 'finish' | 'error', listener: (...args: unknown[]) => void): unknown;
  on(event: 'close' | 'error', listener: (...args: unknown[]) => void): unknown;
  off(event: 'drain' | 'close' | 'finish' | 'error', listener: (...args: unknown[]) => void): unknown;
  readonly writableFinished?: boolean;
}

/** The status line and headers written before a streamed body. */
export interface LambdaStreamPrelude {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly cookies?: string[];
}

export type LambdaStreamingHandler = (event: LambdaHttpEvent, responseStream: LambdaResponseStream, context?: unknown) => Promise<void>;

/** The part of the Lambda Node.js runtime's `awslambda` global that response streaming uses. */
export interface AwsLambdaStreaming {
  streamifyResponse(handler: LambdaStreamingHandler): unknown;
  readonly HttpResponseStream: { from(responseStream: LambdaResponseStream, prelude: LambdaStreamPrelude): LambdaResponseStream };
}

/** The part of the Lambda context the buffered handler reads. */
export interface LambdaContextLike {
  getRemainingTimeInMillis?(): number;
}

/** Settings of {@link createA2ALambdaHandler}. */
export interface A2ALambdaHandlerOptions extends A2AFetchHandlerOptions {
  /**
   * How long before the invocation's deadline (`context.getRemainingTimeInMillis()`) an answer
   * still being read (a buffered SSE stream) is ended and returned with what it has, instead of
   * the function timing out with nothing; the task goes on. Default 1000; 0 disables.
   */
  readonly timeoutMarginMs?: number;
}

/** Settings of {@link createA2AStreamingLambdaHandler}. */
export interface A2AStreamingLambdaHandlerOptions extends A2AFetchHandlerOptions {
  /** The runtime's `awslambda` global; default `globalThis.awslambda` (present only inside Lambda). */
  readonly awslambda?: AwsLambdaStreaming;
}

/**
 * The A2A agent as a buffered Lambda handler for API Gateway HTTP API v2 / Function URL events
 * (`version: '2.0'`) and API Gateway v1 REST events (`httpMethod`). The event becomes a WHATWG
 * `Request` (origin from `X-Forwarded-Proto` and `Host`, else `requestContext.domainName`), the
 * fetch handler answers it, and the `Response` becomes the matching result (v2: `headers` and
 * `cookies`; v1: `multiValueHeaders`), textual bodies as UTF-8, others base64.
 *
 * A public path prefix the function does not see — the stage of a REST API (`/prod`), or a
 * named HTTP API stage — becomes the fetch handler's mount path (before `mountPath`), so the
 * card's URLs include it.
 *
 * Buffered: an SSE response (`SendStreamingMessage`, `message:stream`, `tasks/…:subscribe`) is
 * read to its end and returned whole, and the stream ends only when the task does (or
 * `timeoutMarginMs` before the invocation's deadline, with the events so far). Fine for short
 * tasks; for long ones use {@link createA2AStreamingLambdaHandler} on a Function URL.
 */
export function createA2ALambdaHandler(options: A2ALambdaHandlerOptions): A2ALambdaHandler {
  // Heartbeats keep nothing alive in a buffered answer; they only lengthen it.
  const handlers = fetchHandlers({ ...options, sseHeartbeatMs: options.sseHeartbeatMs ?? 0 });
  const margin = options.timeoutMarginMs ?? 1000;
  const handle = async (event: LambdaHttpEvent, context?: unknown): Promise<LambdaResultV2 | LambdaResultV1> => {
    const abort = new AbortController();
    const remaining = (context as LambdaContextLike | undefined)?.getRemainingTimeInMillis;
    const deadline = margin > 0 && typeof remaining === 'function' ? setTimeout(() => abort.abort(), Math.max(0, remaining.call(context) - margin)) : undefined;
    let body: Uint8Array;
    let response: Response;
    try {
      const { request, prefix } = lambdaRequest(event, abort.signal);
      response = await handlers(prefix)(request);
      body = request.method === 'HEAD' ? new Uint8Array() : new Uint8Array(await response.arrayBuffer());
    } finally {
      if (deadline) clearTimeout(deadline);
    }
    const text = isTextual(response.headers.get('content-type'));
    const encoded = text ? Buffer.from(body).toString('utf8') : Buffer.from(body).toString('base64');
    if (isV2(event)) {
      const { headers, cookies } = singleHeaders(response.headers);
      return { statusCode: response.status, headers, body: encoded, isBase64Encoded: !text, ...(cookies.length > 0 ? { cookies } : {}) };
    }
    return { statusCode: response.status, multiValueHeaders: multiHeaders(response.headers), body: encoded, isBase64Encoded: !text };
  };
  return handle as A2ALambdaHandler;
}

/**
 * The A2A agent as a Lambda Function URL handler with response streaming (the function's URL
 * configured with `InvokeMode: RESPONSE_STREAM`): `awslambda.streamifyResponse` wraps it, the
 * status and headers go out through `awslambda.HttpResponseStream.from`, and the body is piped
 * chunk by chunk as the agent produces it (SSE events arrive as they happen), waiting for
 * `drain` when the stream's buffer is full. If the stream closes before the body ends, the
 * request is aborted and the body canceled (the task goes on; the client may resubscribe).
 *
 * `awslambda` is a global of the Lambda Node.js runtime only: pass it in `options.awslambda`
 * elsewhere (tests); without either this throws.
 */
export function createA2AStreamingLambdaHandler(options: A2AStreamingLambdaHandlerOptions): unknown {
  const aws = options.awslambda ?? (globalThis as { awslambda?: AwsLambdaStreaming }).awslambda;
  if (!aws || typeof aws.streamifyResponse !== 'function' || typeof aws.HttpResponseStream?.from !== 'function') {
    throw new Error(
      'createA2AStreamingLambdaHandler needs the `awslambda` global of the AWS Lambda Node.js runtime (awslambda.streamifyResponse, awslambda.HttpResponseStream); outside Lambda pass it as options.awslambda',
    );
  }
  const handlers = fetchHandlers(options);
  return aws.streamifyResponse(async (event, responseStream) => {
    const abort = new AbortController();
    const { request, prefix } = lambdaRequest(event, abort.signal);
    const response = await handlers(prefix)(request);
    const { headers, cookies } = singleHeaders(response.headers);
    const out = aws.HttpResponseStream.from(responseStream, {
      statusCode: response.status,
      headers,
      ...(cookies.length > 0 ? { cookies } : {}),
    });
    const reader = request.method === 'HEAD' ? undefined : response.body?.getReader();
    let done = false;
    let closed = false;
    const onClose = () => {
      if (done) return;
      closed = true;
      abort.abort();
      reader?.cancel().catch(() => undefined);
    };
    out.on('close', onClose);
    out.on('error', onClose);
    try {
      while (reader && !closed) {
        const next = await reader.read();
        if (next.done || closed) break;
        if (!out.write(next.value)) await drained(out);
      }
    } catch {
      // The body failed (or was canceled after the stream closed): end what was sent.
    } finally {
      done = true;
    }
    if (!reader) await response.body?.cancel().catch(() => undefined);
    if (!closed) await new Promise<void>((resolve) => out.end(resolve));
  });
}

/**
 * One fetch handler per public prefix (stages are few and set by API Gateway, not by clients).
 * Lambda runs Node, so the handler's webhooks get the pinned node:http network, as on the
 * node listener, instead of the fetch one of the core.
 */
function fetchHandlers(options: A2AFetchHandlerOptions): (prefix: string) => A2AFetchHandler {
  options.handler.useWebhookNetwork?.(PINNED_WEBHOOK_NETWORK);
  const mount = normalizeMountPath(options.mountPath);
  const byPrefix = new Map<string, A2AFetchHandler>();
  return (prefix) => {
    let handler = byPrefix.get(prefix);
    if (!handler) {
      handler = createA2AFetchHandler({ ...options, mountPath: `${prefix}${mount}` });
      byPrefix.set(prefix, handler);
    }
    return handler;
  };
}

function isV2(event: LambdaHttpEvent): event is LambdaHttpEventV2 {
  return (event as LambdaHttpEventV2).version === '2.0' && typeof (event as LambdaHttpEventV2).rawPath === 'string';
}

/** The WHATWG request of an event and the public path prefix (stage) the function does not route on. */
export function lambdaRequest(event: LambdaHttpEvent, signal?: AbortSignal): { request: Request; prefix: string } {
  const headers = new Headers();
  const add = (name: string, value: string | undefined) => {
    if (value === undefined) return;
    try {
      headers.append(name, value);
    } catch {
      // A header the fetch standard refuses (invalid characters): dropped.
    }
  };
  let method: string;
  let path: string;
  let query: string;
  let prefix = '';
  let domainName: string | undefined;
  if (isV2(event)) {
    method = event.requestContext.http.method;
    for (const [name, value] of Object.entries(event.headers ?? {})) add(name, value);
    if (event.cookies?.length) headers.set('cookie', event.cookies.join('; '));
    path = event.rawPath || '/';
    query = event.rawQueryString ?? '';
    domainName = event.requestContext.domainName;
    const stage = event.requestContext.stage;
    if (stage && stage !== '$default' && (path === `/${stage}` || path.startsWith(`/${stage}/`))) prefix = `/${stage}`;
  } else if (typeof event.httpMethod === 'string') {
    method = event.httpMethod;
    const multi = event.multiValueHeaders ?? {};
    for (const [name, values] of Object.entries(multi)) for (const value of values ?? []) add(name, value);
    for (const [name, value] of Object.entries(event.headers ?? {})) if (!(name in multi)) add(name, value);
    const params = new URLSearchParams();
    const multiQuery = event.multiValueQueryStringParameters;
    if (multiQuery) for (const [name, values] of Object.entries(multiQuery)) for (const value of values ?? []) params.append(name, value);
    else for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) if (value !== undefined) params.append(name, value);
    query = params.toString();
    domainName = event.requestContext?.domainName;
    prefix = restPrefix(event);
    path = `${prefix}${event.path || '/'}`;
  } else {
    throw new TypeError('Not an API Gateway or Function URL event: expected `version: "2.0"` with `rawPath`, or `httpMethod`');
  }
  const proto = (headers.get('x-forwarded-proto') ?? 'https').split(',')[0]?.trim() === 'http' ? 'http' : 'https';
  const host = headers.get('host') ?? domainName ?? 'localhost';
  let url: URL;
  try {
    url = new URL(`${proto}://${host}`);
  } catch {
    url = new URL(`${proto}://${domainName ?? 'localhost'}`);
  }
  const target = `${url.origin}${path.startsWith('/') ? path : `/${path}`}${query ? `?${query}` : ''}`;
  const upper = method.toUpperCase();
  const raw = upper === 'GET' || upper === 'HEAD' ? undefined : (event.body ?? undefined);
  const body = raw === undefined ? undefined : event.isBase64Encoded ? Buffer.from(raw, 'base64') : raw;
  return { request: new Request(target, { method: upper, headers, body, signal }), prefix };
}

/**
 * What comes before a REST event's `path` in the public URL: `requestContext.path` minus `path`
 * (the stage on the execute-api domain, a custom domain's base path mapping, or nothing), else
 * `/${stage}` when the event has no `requestContext.path`.
 */
function restPrefix(event: LambdaRestEventV1): string {
  const trim = (p: string) => (p.length > 1 && p.endsWith('/') ? p.replace(/\/+$/, '') : p);
  const path = trim(event.path || '/');
  const sent = event.requestContext?.path;
  if (sent !== undefined) {
    const full = trim(sent);
    if (path === '/') return full === '/' ? '' : validPrefix(full);
    if (full.endsWith(path)) return validPrefix(full.slice(0, full.length - path.length));
    return '';
  }
  const stage = event.requestContext?.stage;
  return stage && stage !== '$default' ? validPrefix(`/${stage}`) : '';
}

function validPrefix(prefix: string): string {
  return /^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*$/.test(prefix) ? prefix : '';
}

/** Whether a body of this media type goes back as UTF-8 text (else base64). */
function isTextual(contentType: string | null): boolean {
  if (!contentType) return true;
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return type.startsWith('text/') || type.endsWith('json') || type.endsWith('+xml') || type === 'application/xml' || type === 'application/javascript';
}

/** Response headers as one value each (Headers already joins repeats), `Set-Cookie` apart. */
function singleHeaders(source: Headers): { headers: Record<string, string>; cookies: string[] } {
  const headers: Record<string, string> = {};
  for (const [name, value] of source) if (name !== 'set-cookie') headers[name] = value;
  return { headers, cookies: source.getSetCookie() };
}

function multiHeaders(source: Headers): Record<string, string[]> {
  const headers: Record<string, string[]> = {};
  for (const [name, value] of source) if (name !== 'set-cookie') headers[name] = [value];
  const cookies = source.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return headers;
}

/** Resolves when the stream can take more, or has closed. */
function drained(out: LambdaResponseStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      out.off('error', done);
      resolve();
    };
    out.once('drain', done);
    out.once('close', done);
    out.once('error', done);
  });
}
