import { ApiKeyAuthenticator, RequestHandler } from '@a2a-polyglot/core';
import { fetchExchangeRequest, fetchResponse, routingPath } from '@a2a-polyglot/http';
import { bindingHandlerOptions, clientRequest, Gates, type JsonAnswer, readJsonAnswer } from '@a2a-polyglot/testing';
import { createRestExchangeHandler } from '../src/index.js';

/** The A2A-Version header of a v1.0 client. */
export const V: Readonly<Record<string, string>> = { 'a2a-version': '1.0' };

/** The REST base URL the in-process requests name; paths are relative to it, as the host hands them on. */
export const REST_BASE = 'http://agent.test/a2a';

/** What {@link restEndpoint} varies. */
export interface RestEndpointOptions {
  /** Default: the scripted agent behind `bindingTestCard` (see `bindingHandlerOptions`). */
  readonly handler?: RequestHandler;
  /** API keys (key → principal): the default handler then refuses calls without one. */
  readonly apiKeys?: Record<string, string>;
  readonly strictRequests?: boolean;
  readonly maxBodyBytes?: number;
}

/**
 * The REST binding in-process: `createRestExchangeHandler` called with a fetch `Request`'s
 * exchange view and the path relative to {@link REST_BASE}, its answer rendered as a fetch
 * `Response` by the fetch adapter. No socket: the tests see what a client would.
 */
export interface RestEndpoint {
  readonly handler: RequestHandler;
  /** The gates the scripted agent's `gate K` / `steps N K` wait on. */
  readonly gates: Gates;
  /** Any request; `path` (with its query) relative to the REST base. */
  call(path: string, init?: RequestInit): Promise<Response>;
  /** One REST call; `body` is sent as `application/a2a+json` JSON when given. */
  rest(method: string, path: string, body?: unknown, headers?: Readonly<Record<string, string>>): Promise<JsonAnswer>;
  /** A streaming call asking for SSE; the raw response (SSE, or JSON for a pre-stream failure). */
  stream(method: string, path: string, body?: unknown, headers?: Readonly<Record<string, string>>): Promise<Response>;
  close(): Promise<void>;
}

/** Starts a {@link RestEndpoint}; `close` opens every gate and shuts the handler down. */
export function restEndpoint(options: RestEndpointOptions = {}): RestEndpoint {
  const gates = new Gates();
  const authenticator = options.apiKeys ? new ApiKeyAuthenticator({ keys: options.apiKeys }) : undefined;
  const handler = options.handler ?? new RequestHandler({ ...bindingHandlerOptions(gates), authenticator, strictRequests: options.strictRequests });
  const serve = createRestExchangeHandler(handler, { maxBodyBytes: options.maxBodyBytes });
  // The path as the listeners hand it on: without the query (read from the URL) or a trailing slash.
  const call = async (path: string, init: RequestInit = {}) =>
    fetchResponse(await serve(fetchExchangeRequest(clientRequest(`${REST_BASE}${path}`, init)), routingPath(path)));
  const json = (body: unknown): Record<string, string> => (body === undefined ? {} : { 'content-type': 'application/a2a+json' });
  const encoded = (body: unknown) => (body === undefined ? undefined : JSON.stringify(body));
  return {
    handler,
    gates,
    call,
    rest: async (method, path, body, headers = V) => readJsonAnswer(await call(path, { method, headers: { ...json(body), ...headers }, body: encoded(body) })),
    stream: (method, path, body, headers = {}) =>
      call(path, { method, headers: { accept: 'text/event-stream', ...V, ...json(body), ...headers }, body: encoded(body) }),
    close: async () => {
      gates.openAll();
      await handler.shutdown(100);
    },
  };
}
