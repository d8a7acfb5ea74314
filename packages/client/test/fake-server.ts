/** A node:http server whose every answer the test scripts: for servers that misbehave on purpose. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the fake server saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly json: any;
}

export interface FakeServer {
  readonly url: string;
  readonly requests: SeenRequest[];
  close(): Promise<void>;
}

export type FakeHandler = (req: SeenRequest, res: ServerResponse) => void | Promise<void>;

export async function startFakeServer(handler: FakeHandler): Promise<FakeServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const seen: SeenRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body, json };
      requests.push(seen);
      Promise.resolve(handler(seen, res)).catch(() => res.destroy());
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A minimal valid v1.0 card JSON for `url` (its JSON-RPC endpoint at `/rpc`, REST at `/rest`). */
export function cardJson(base: string, extra: Record<string, unknown> = {}, tenant = ''): Record<string, unknown> {
  return {
    name: 'fake',
    description: 'scripted',
    version: '1',
    supportedInterfaces: [
      { url: `${base}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', ...(tenant ? { tenant } : {}) },
      { url: `${base}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', ...(tenant ? { tenant } : {}) },
    ],
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    ...extra,
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Starts an SSE response. */
export function sse(res: ServerResponse): { event(data: unknown, id?: number, name?: string): void; end(): void; cut(): void } {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  return {
    event(data, id, name) {
      res.write(`${id === undefined ? '' : `id: ${id}\n`}${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      res.end();
    },
    /** Drops the connection mid-response (pending bytes are flushed first, the chunked body is never finished). */
    cut() {
      res.socket?.end();
    },
  };
}
