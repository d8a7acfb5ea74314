import { createServer, type Server } from 'node:http';
import { Gates, scriptedAgent, testAgentCard } from '@a2a-polyglot/testing';
import type { AddressInfo } from 'node:net';
import { WebSocket, type ClientOptions, type RawData } from 'ws';
import type { AgentCard } from '@a2a-polyglot/model';
import { ApiKeyAuthenticator, type EventLog, RequestHandler, silentLogger } from '@a2a-polyglot/core';
import { createUpgradeListener, createWebSocketBinding, SUBPROTOCOL, type WebSocketBinding, type WebSocketBindingOptions } from '../src/index.js';

export const WS_PATH = '/a2a/ws';

/** The shared test card with streaming on (push and the extended card off) and `extensions` declared. */
export function testCard(extensions: readonly string[] = []): AgentCard {
  return testAgentCard({
    name: 'ws test agent',
    description: 'scripted agent for WebSocket tests',
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extendedAgentCard: false,
      extensions: extensions.map((uri) => ({ uri, description: '', required: false, params: undefined })),
    },
  });
}

/** The gates and the one scripted agent of the tests (its commands: see `scriptedAgent` in @a2a-polyglot/testing). */
export { Gates, scriptedAgent } from '@a2a-polyglot/testing';

export interface WsTestServer {
  readonly url: string;
  readonly wsUrl: string;
  readonly handler: RequestHandler;
  readonly gates: Gates;
  readonly binding: WebSocketBinding;
  readonly server: Server;
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1:0 whose upgrades at {@link WS_PATH} go to the binding. */
export async function startWsServer(
  options: WebSocketBindingOptions & {
    handler?: RequestHandler;
    apiKeys?: Record<string, string>;
    eventLog?: EventLog;
    extensions?: string[];
    strictRequests?: boolean;
  } = {},
): Promise<WsTestServer> {
  const gates = new Gates();
  const handler =
    options.handler ??
    new RequestHandler({
      card: testCard(options.extensions),
      executor: scriptedAgent(gates),
      eventLog: options.eventLog,
      authenticator: options.apiKeys ? new ApiKeyAuthenticator({ keys: options.apiKeys }) : undefined,
      strictRequests: options.strictRequests,
      logger: silentLogger,
    });
  const binding = createWebSocketBinding(handler, { heartbeatMs: 0, ...options });
  const server = createServer((_req, res) => {
    res.writeHead(404);
    res.end();
  });
  server.on('upgrade', createUpgradeListener(binding, WS_PATH));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}${WS_PATH}`,
    handler,
    gates,
    binding,
    server,
    close: async () => {
      gates.openAll();
      await handler.shutdown(100);
      await binding.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Frame = Record<string, any>;

/**
 * A raw test peer: speaks frames, records everything it receives, and waits (bounded) for
 * frames or the close.
 */
export class Peer {
  readonly frames: Frame[] = [];
  readonly texts: string[] = [];
  closeCode: number | undefined;
  closeReason = '';
  /** Heartbeat pings received from the server (answered by the ws client's auto-pong). */
  pings = 0;
  private nextId = 1;
  private readonly changed = new Set<() => void>();

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: RawData, isBinary: boolean) => {
      const text = isBinary ? '<binary>' : data.toString();
      this.texts.push(text);
      try {
        this.frames.push(JSON.parse(text));
      } catch {
        this.frames.push({ unparsable: text });
      }
      this.notify();
    });
    ws.on('close', (code, reason) => {
      this.closeCode = code;
      this.closeReason = reason.toString();
      this.notify();
    });
    ws.on('ping', () => {
      this.pings++;
      this.notify();
    });
    ws.on('error', () => undefined);
  }

  /** Connects with the A2A subprotocol (plus `protocols`), `A2A-Version: 1.0` unless told otherwise. */
  static connect(url: string, options: { protocols?: string[]; headers?: Record<string, string>; query?: string; ws?: ClientOptions } = {}): Promise<Peer> {
    const headers = options.headers ?? { 'A2A-Version': '1.0' };
    const ws = new WebSocket(`${url}${options.query ?? ''}`, options.protocols ?? [SUBPROTOCOL], { headers, ...options.ws });
    const peer = new Peer(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(peer));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** Sends a request frame and returns its id. */
  request(method: string, params?: unknown, extra: Frame = {}): number {
    const id = this.nextId++;
    this.sendJson({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }), ...extra });
    return id;
  }

  sendJson(frame: unknown): void {
    this.ws.send(JSON.stringify(frame));
  }

  cancelStream(id: number): void {
    this.sendJson({ jsonrpc: '2.0', id, cancelStream: true });
  }

  /** All frames received with this id. */
  framesFor(id: number | null): Frame[] {
    return this.frames.filter((f) => f.id === id);
  }

  /** Waits for the unary answer (result or error) of `id`. */
  async answer(id: number): Promise<Frame> {
    await this.until(() => this.framesFor(id).some((f) => 'result' in f || 'error' in f));
    return this.framesFor(id).find((f) => 'result' in f || 'error' in f)!;
  }

  /** Waits for the end of stream `id` (streamEnd or error) and returns all its frames. */
  async stream(id: number): Promise<Frame[]> {
    await this.until(() => this.framesFor(id).some((f) => f.streamEnd === true || 'error' in f));
    return this.framesFor(id);
  }

  /** Waits until the socket closed. */
  async closed(): Promise<{ code: number | undefined; reason: string }> {
    await this.until(() => this.closeCode !== undefined);
    return { code: this.closeCode, reason: this.closeReason };
  }

  /** Waits (bounded) until `check` holds. */
  until(check: () => boolean, timeoutMs = 5000): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.changed.delete(listener);
        reject(new Error(`condition not met within ${timeoutMs} ms; frames: ${this.texts.slice(-5).join(' | ')}`));
      }, timeoutMs);
      const listener = () => {
        if (!check()) return;
        clearTimeout(timer);
        this.changed.delete(listener);
        resolve();
      };
      this.changed.add(listener);
    });
  }

  close(): void {
    this.ws.terminate();
  }

  private notify(): void {
    for (const listener of [...this.changed]) listener();
  }
}

/** A SendMessageRequest JSON. */
export function sendParams(text: string, configuration?: Record<string, unknown>): Record<string, unknown> {
  return {
    message: { messageId: `m-${Math.random().toString(36).slice(2)}`, role: 'ROLE_USER', parts: [{ text }] },
    ...(configuration ? { configuration } : {}),
  };
}

export { waitFor, waitForSteady } from '@a2a-polyglot/testing';
