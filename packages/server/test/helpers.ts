import type { AgentCard } from '@a2a-polyglot/model';
import { bindingHandlerOptions, bindingTestCard, Gates, type JsonAnswer, readJsonAnswer, TEST_EXTENSION } from '@a2a-polyglot/testing';
import { ApiKeyAuthenticator, RequestHandler } from '@a2a-polyglot/core';
import { type RunningA2AServer, startA2AServer, type StartA2AServerOptions } from '../src/index.js';

/** The optional extension of the test card (shared with the binding packages' tests). */
export const EXT = TEST_EXTENSION;

/** The shared test card with every capability on and one optional extension. */
export const testCard = bindingTestCard;

/** The gates and the one scripted agent of the tests (its commands: see `scriptedAgent` in @a2a-polyglot/testing). */
export { Gates, scriptedAgent } from '@a2a-polyglot/testing';

/** Records push deliveries instead of calling webhooks. */
export { RecordingPushSender } from '@a2a-polyglot/testing';

export interface TestServer {
  readonly url: string;
  readonly running: RunningA2AServer;
  readonly handler: RequestHandler;
  /** The gates the scripted agent's `gate K` / `burst N K` / `steps N K` wait on. */
  readonly gates: Gates;
  /** JSON-RPC endpoint URL. */
  readonly rpcUrl: string;
  /** REST base URL. */
  readonly restUrl: string;
  close(): Promise<void>;
}

/** Starts a test server on 127.0.0.1:0 with the scripted agent. */
export async function startTestServer(
  options: Partial<Omit<StartA2AServerOptions, 'handler'>> & {
    handler?: RequestHandler;
    apiKeys?: Record<string, string>;
    card?: Partial<AgentCard>;
    strictRequests?: boolean;
  } = {},
): Promise<TestServer> {
  const gates = new Gates();
  const handler =
    options.handler ??
    new RequestHandler({
      ...bindingHandlerOptions(gates, testCard(options.card)),
      authenticator: options.apiKeys ? new ApiKeyAuthenticator({ keys: options.apiKeys }) : undefined,
      strictRequests: options.strictRequests,
    });
  const running = await startA2AServer({ ...options, handler });
  const basePath = options.basePath ?? '/a2a';
  return {
    url: running.url,
    running,
    handler,
    gates,
    rpcUrl: `${running.url}${basePath}/rpc`,
    restUrl: `${running.url}${basePath}`,
    close: async () => {
      gates.openAll();
      await handler.shutdown(100);
      await running.close();
    },
  };
}

export const V = { 'a2a-version': '1.0' };

/** A SendMessageRequest JSON. */
export { sendMessageJson as sendParams } from '@a2a-polyglot/testing';

let nextId = 1;

/** One JSON-RPC call over HTTP; returns status, headers and parsed body. */
export async function rpc(url: string, method: string, params?: unknown, headers: Record<string, string> = V): Promise<JsonAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, ...(params === undefined ? {} : { params }) }),
  });
  return readJsonAnswer(res);
}

/** POSTs a raw body to a URL (bad-input tests). */
export async function postRaw(url: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json', ...V }): Promise<JsonAnswer> {
  return readJsonAnswer(await fetch(url, { method: 'POST', headers, body }));
}

/** One REST call; `body` is JSON-encoded when given. */
export async function rest(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = V): Promise<JsonAnswer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/a2a+json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return readJsonAnswer(res);
}

/** Reads an SSE response to its end or until told to stop (see `readSseEvents` in @a2a-polyglot/testing). */
export { readSseEvents as readSse, type SseEvent, type SseRead } from '@a2a-polyglot/testing';

/** Opens a streaming JSON-RPC call; returns the raw response (SSE or JSON). */
export function rpcStream(url: string, method: string, params: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...V, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
}

export { waitFor, waitForSteady } from '@a2a-polyglot/testing';
