import type { AgentCard, StreamResponse, TaskPushNotificationConfig } from '@a2a-polyglot/model';
import { Gates, scriptedAgent, testAgentCard } from '@a2a-polyglot/testing';
import { ApiKeyAuthenticator, type PushSender, RequestHandler } from '@a2a-polyglot/core';
import * as sse from '@a2a-polyglot/sse';
import { type RunningA2AServer, startA2AServer, type StartA2AServerOptions } from '../src/index.js';

export const EXT = 'https://example.com/ext/echo';

/** The shared test card with every capability on and one optional extension. */
export function testCard(overrides: Partial<AgentCard> = {}): AgentCard {
  return testAgentCard({
    name: 'test agent',
    description: 'scripted agent for binding tests',
    capabilities: {
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: true,
      extensions: [{ uri: EXT, description: 'echo', required: false, params: undefined }],
    },
    ...overrides,
  });
}

/** The gates and the one scripted agent of the tests (its commands: see `scriptedAgent` in @a2a-polyglot/testing). */
export { Gates, scriptedAgent } from '@a2a-polyglot/testing';

/** Records push deliveries instead of calling webhooks. */
export class RecordingPushSender implements PushSender {
  readonly sent: Array<{ config: TaskPushNotificationConfig; event: StreamResponse }> = [];
  async send(config: TaskPushNotificationConfig, event: StreamResponse): Promise<void> {
    this.sent.push({ config, event });
  }
}

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
  const card = testCard(options.card);
  const handler =
    options.handler ??
    new RequestHandler({
      card,
      executor: scriptedAgent(gates),
      pushSender: new RecordingPushSender(),
      allowPrivateWebhooks: true,
      extendedCard: () => ({ ...card, name: 'extended test agent' }),
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
export function sendParams(text: string, extra: Record<string, unknown> = {}, configuration?: Record<string, unknown>): Record<string, unknown> {
  return {
    message: { messageId: `m-${Math.random().toString(36).slice(2)}`, role: 'ROLE_USER', parts: [{ text }], ...extra },
    ...(configuration ? { configuration } : {}),
  };
}

let nextId = 1;

/** One JSON-RPC call over HTTP; returns status, headers and parsed body. */
export async function rpc(
  url: string,
  method: string,
  params?: unknown,
  headers: Record<string, string> = V,
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, ...(params === undefined ? {} : { params }) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** POSTs a raw body to a URL (bad-input tests). */
export async function postRaw(
  url: string,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/json', ...V },
): Promise<{ status: number; headers: Headers; text: string; body: any }> {
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/** One REST call; `body` is JSON-encoded when given. */
export async function rest(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = V,
): Promise<{ status: number; headers: Headers; text: string; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/a2a+json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** Parsed SSE: events in order, plus the comment lines seen. */
export interface SseRead {
  events: SseEvent[];
  comments: string[];
}

/**
 * Reads an SSE response (parsed by `@a2a-polyglot/sse`, the reader the client uses) to its
 * end, or until `until` says stop (then cancels the body). Bounded by `timeoutMs`: then it
 * returns what it read so far.
 */
export async function readSse(res: Response, until?: (read: SseRead) => boolean, timeoutMs = 10_000): Promise<SseRead> {
  const read: SseRead = { events: [], comments: [] };
  const stop = new AbortController();
  const deadline = setTimeout(() => stop.abort(new Error(`SSE read timed out after ${timeoutMs} ms`)), timeoutMs);
  const check = () => until?.(read) && stop.abort(new Error('read enough'));
  try {
    const comments = (text: string) => (read.comments.push(text.trim()), check());
    for await (const e of sse.readSse(res.body!, { signal: stop.signal, onComment: comments })) {
      read.events.push({ data: e.data, ...(e.ownId !== undefined && { id: e.ownId }), ...(e.event !== undefined && { event: e.event }) });
      check();
    }
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  } finally {
    clearTimeout(deadline);
  }
  return read;
}

/** Opens a streaming JSON-RPC call; returns the raw response (SSE or JSON). */
export function rpcStream(url: string, method: string, params: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...V, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
}

export { waitFor, waitForSteady } from '@a2a-polyglot/testing';
