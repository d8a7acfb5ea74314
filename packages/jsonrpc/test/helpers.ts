import { type AgentExecutor, ApiKeyAuthenticator, type Logger, RequestHandler } from '@a2a-polyglot/core';
import { fetchExchangeRequest, fetchResponse } from '@a2a-polyglot/http';
import { bindingHandlerOptions, clientRequest, Gates, type JsonAnswer, readJsonAnswer, testAgentCard } from '@a2a-polyglot/testing';
import { createJsonRpcExchangeHandler } from '../src/index.js';

/** A card with streaming on, push notifications and the extended card off. */
const card = testAgentCard({ capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false, extensions: [] } });

/** Echoes the message text back as one artifact and completes. */
const echo: AgentExecutor = {
  async execute(ctx) {
    ctx.artifact({ text: ctx.text, lastChunk: true });
    ctx.complete();
  },
};

/** The handler the dispatcher tests call: the echo agent behind the card above, silent. */
export function echoHandler(): RequestHandler {
  return new RequestHandler({ card, executor: echo });
}

/** The A2A-Version header of a v1.0 client. */
export const V: Readonly<Record<string, string>> = { 'a2a-version': '1.0' };

/** The endpoint URL the in-process requests name (only its query is read: the handler serves one URL). */
export const RPC_URL = 'http://agent.test/a2a/rpc';

/** What {@link jsonRpcEndpoint} varies. */
export interface JsonRpcEndpointOptions {
  /** Default: the scripted agent behind `bindingTestCard` (see `bindingHandlerOptions`). */
  readonly handler?: RequestHandler;
  /** API keys (key → principal): the default handler then refuses calls without one. */
  readonly apiKeys?: Record<string, string>;
  readonly strictRequests?: boolean;
  readonly maxBodyBytes?: number;
  readonly logger?: Logger;
}

/**
 * The JSON-RPC binding in-process: `createJsonRpcExchangeHandler` called with a fetch
 * `Request`'s exchange view, its answer rendered as a fetch `Response` by the fetch adapter.
 * No socket: the tests see the statuses, headers, bodies and SSE frames a client would.
 */
export interface JsonRpcEndpoint {
  readonly handler: RequestHandler;
  /** The gates the scripted agent's `gate K` / `steps N K` wait on. */
  readonly gates: Gates;
  /** Any request to the endpoint (`RPC_URL`, or `url` for a query). */
  post(init: RequestInit, url?: string): Promise<Response>;
  /** One JSON-RPC call (a fresh numeric id), answered whole. */
  rpc(method: string, params?: unknown, headers?: Readonly<Record<string, string>>, url?: string): Promise<JsonAnswer>;
  /** POSTs a raw body (bad-input tests). */
  postRaw(body: string, headers?: Readonly<Record<string, string>>): Promise<JsonAnswer>;
  /** A streaming call asking for SSE; the raw response (SSE, or JSON for a pre-stream failure). */
  rpcStream(method: string, params: unknown, headers?: Readonly<Record<string, string>>, id?: number): Promise<Response>;
  /** A fresh request id, for tests that check it comes back. */
  nextId(): number;
  close(): Promise<void>;
}

/** Starts a {@link JsonRpcEndpoint}; `close` opens every gate and shuts the handler down. */
export function jsonRpcEndpoint(options: JsonRpcEndpointOptions = {}): JsonRpcEndpoint {
  const gates = new Gates();
  const authenticator = options.apiKeys ? new ApiKeyAuthenticator({ keys: options.apiKeys }) : undefined;
  const handler = options.handler ?? new RequestHandler({ ...bindingHandlerOptions(gates), authenticator, strictRequests: options.strictRequests });
  const serve = createJsonRpcExchangeHandler(handler, { maxBodyBytes: options.maxBodyBytes, logger: options.logger });
  let id = 1;
  const post = async (init: RequestInit, url = RPC_URL) => fetchResponse(await serve(fetchExchangeRequest(clientRequest(url, { method: 'POST', ...init }))));
  const postRaw = async (body: string, headers: Readonly<Record<string, string>> = { 'content-type': 'application/json', ...V }) =>
    readJsonAnswer(await post({ headers, body }));
  return {
    handler,
    gates,
    post,
    postRaw,
    rpc: async (method, params, headers = V, url = RPC_URL) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: id++, method, ...(params === undefined ? {} : { params }) });
      return readJsonAnswer(await post({ headers: { 'content-type': 'application/json', ...headers }, body }, url));
    },
    rpcStream: (method, params, headers = {}, streamId = id++) =>
      post({
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...V, ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: streamId, method, params }),
      }),
    nextId: () => id++,
    close: async () => {
      gates.openAll();
      await handler.shutdown(100);
    },
  };
}
