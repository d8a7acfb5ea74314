/**
 * A second A2A server that offers A2A v0.3 JSON-RPC and nothing else, for tests of the
 * `a2a-remote` handler against a v0.3-only peer built on our own stack.
 *
 * Our server cannot be told to serve one binding of one generation: its listener always serves
 * JSON-RPC of both generations (the method name picks one) and REST. So the handler is served
 * by our listener behind a front that lets through only v0.3 JSON-RPC: the card is the pure
 * v0.3 card naming the JSON-RPC endpoint alone, a JSON-RPC call with a v1.0 method name
 * (`SendMessage`, not `message/send`) is answered -32601, and every other path is 404.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServedHandler } from '@a2a-polyglot/core';
import { AgentCard } from '@a2a-polyglot/model';
import { createA2ARequestListener } from '@a2a-polyglot/server';
import { agentCardToV03 } from '@a2a-polyglot/v03/json';

/** A running v0.3-only server. */
export interface V03OnlyServer {
  /** Base URL: the card is at `{url}/.well-known/agent-card.json`. */
  readonly url: string;
  /** The JSON-RPC endpoint, the card's only interface. */
  readonly rpcUrl: string;
  /** The JSON-RPC methods called so far, in order, refused ones included: what its clients spoke. */
  readonly methods: readonly string[];
  close(): Promise<void>;
}

const CARD_PATH = '/.well-known/agent-card.json';
const RPC_PATH = '/a2a/rpc';

/** Serves `handler` on loopback as a v0.3 JSON-RPC agent only (see the module comment). */
export async function startV03OnlyServer(handler: ServedHandler): Promise<V03OnlyServer> {
  const listener = createA2ARequestListener({ handler });
  const methods: string[] = [];
  let base = '';
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET' && path === CARD_PATH) return send(res, 200, v03Card(handler, `${base}${RPC_PATH}`));
    if (req.method === 'POST' && path === RPC_PATH) return void frontRpc(req, res, listener, methods);
    send(res, 404, { error: `${path} is not served: this agent speaks A2A v0.3 JSON-RPC at ${RPC_PATH} only` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    rpcUrl: `${base}${RPC_PATH}`,
    methods,
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** The handler's card in its pure v0.3 form, with the JSON-RPC endpoint as its one interface. */
function v03Card(handler: ServedHandler, rpcUrl: string): unknown {
  const json = AgentCard.toJSON(handler.getAgentCard()) as Record<string, unknown>;
  return agentCardToV03({ ...json, supportedInterfaces: [{ url: rpcUrl, protocolBinding: 'JSONRPC', protocolVersion: '0.3' }] } as never);
}

/** Passes a JSON-RPC body on to our listener unless it calls a v1.0 method. */
async function frontRpc(req: IncomingMessage, res: ServerResponse, listener: ReturnType<typeof createA2ARequestListener>, methods: string[]): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const calls = callsOf(text);
  methods.push(...calls.map((c) => c.method));
  const v1 = calls.find((c) => !c.method.includes('/'));
  if (v1 !== undefined) {
    send(res, 200, { jsonrpc: '2.0', id: v1.id, error: { code: -32601, message: `Method not found: ${v1.method} (this agent speaks A2A v0.3 only)` } });
    return;
  }
  // The body is read: the listener takes it as a framework's parsed body (see `frameworkBody`).
  (req as IncomingMessage & { body?: string }).body = text;
  listener(req, res);
}

/** The calls of a JSON-RPC body (or batch) that name a method; none when it is not JSON. */
function callsOf(text: string): { id: unknown; method: string }[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return []; // malformed: our listener answers it as any server would
  }
  return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((entry) => {
    const call = entry as { id?: unknown; method?: unknown } | null;
    return typeof call?.method === 'string' ? [{ id: call.id ?? null, method: call.method }] : [];
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
