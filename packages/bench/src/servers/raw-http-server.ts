import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { rawStreamEvent, rawStreamIds } from './raw-events.js';
import { LOOPBACK, type StartedServer } from './started-server.js';

/**
 * Ceiling: node:http doing the least possible work. `POST /unary` reads the body,
 * `JSON.parse`s it and answers a small JSON-RPC-shaped reply (two UUIDs, about 200 bytes).
 * `POST /sse?k=K[&pause=MS][&idle=1]` answers K + 3 SSE events (one stringify + write each).
 */
export async function startRawHttpServer(): Promise<StartedServer> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, chunks));
  });
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const address = server.address();
  return {
    ports: { http: typeof address === 'object' && address ? address.port : 0 },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function handle(req: IncomingMessage, res: ServerResponse, chunks: Buffer[]): void {
  let body: { id?: unknown };
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown };
  } catch {
    res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"bad json"}');
    return;
  }
  const url = req.url ?? '/';
  if (url === '/unary') {
    const out = JSON.stringify({
      jsonrpc: '2.0',
      id: body.id ?? null,
      result: { message: { messageId: randomUUID(), contextId: randomUUID(), role: 'ROLE_AGENT', parts: [{ text: 'ok' }] } },
    });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
    res.end(out);
    return;
  }
  if (url.startsWith('/sse')) {
    const q = new URLSearchParams(url.slice(url.indexOf('?') + 1));
    streamSse(res, Number(q.get('k') ?? 100), Number(q.get('pause') ?? 0), q.get('idle') === '1');
    return;
  }
  res.writeHead(404).end();
}

function streamSse(res: ServerResponse, k: number, pauseMs: number, idle: boolean): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const ids = rawStreamIds();
  const total = k + 3;
  if (idle) {
    res.write(`data: ${rawStreamEvent(0, k, ids)}\n\n`);
    return; // held open until the client goes away
  }
  if (pauseMs <= 0) {
    for (let i = 0; i < total; i++) res.write(`data: ${rawStreamEvent(i, k, ids)}\n\n`);
    res.end();
    return;
  }
  // Paced like the pausing agent: task and working at once, then a pause before every chunk.
  let i = 0;
  const step = () => {
    if (res.destroyed) return;
    res.write(`data: ${rawStreamEvent(i, k, ids)}\n\n`);
    i++;
    if (i >= total) res.end();
    else if (i < 2 || i === total - 1) step();
    else setTimeout(step, pauseMs);
  };
  step();
}
