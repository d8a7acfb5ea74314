import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake upstream received. */
export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: any;
  /** Resolves when the client closed the connection before the response ended. */
  readonly aborted: Promise<void>;
}

/** A route handler: answer `res` however the test needs (slowly, badly, never). */
export type Route = (req: Recorded, res: ServerResponse) => void | Promise<void>;

/** A fake upstream on 127.0.0.1, port 0, with routes keyed `"METHOD /path"` (path may end in `*`). */
export interface FakeUpstream {
  readonly url: string;
  readonly requests: Recorded[];
  /** Requests whose `METHOD path` matches. */
  calls(key: string): Recorded[];
  close(): Promise<void>;
}

export async function startFakeUpstream(routes: Record<string, Route>): Promise<FakeUpstream> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        /* keep the text */
      }
      const path = (req.url ?? '/').split('?')[0]!;
      const aborted = new Promise<void>((resolve) => res.on('close', () => !res.writableFinished && resolve()));
      const recorded: Recorded = { method: req.method ?? 'GET', path, headers: req.headers, body, aborted };
      requests.push(recorded);
      const route = findRoute(routes, `${recorded.method} ${path}`);
      if (!route) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `no route ${recorded.method} ${path}`, type: 'invalid_request_error' } }));
        return;
      }
      Promise.resolve(route(recorded, res)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    calls: (key) => requests.filter((r) => `${r.method} ${r.path}` === key),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function findRoute(routes: Record<string, Route>, key: string): Route | undefined {
  if (routes[key]) return routes[key];
  for (const [pattern, route] of Object.entries(routes)) {
    if (pattern.endsWith('*') && key.startsWith(pattern.slice(0, -1))) return route;
  }
  return undefined;
}

/** Starts an SSE response. */
export function sseHead(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
}

/** Writes SSE frames (each a full `data: …` / `event: …` block without the blank line), pausing between them. */
export async function writeFrames(res: ServerResponse, frames: readonly string[], delayMs = 0): Promise<void> {
  for (const frame of frames) {
    if (res.destroyed) return;
    res.write(`${frame}\n\n`);
    if (delayMs > 0) await upstreamPause(delayMs);
  }
}

/** `data: <json>` */
export const data = (value: unknown): string => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}`;

/**
 * The fake upstream's own pacing: how long it takes between two writes (a slow model, frames
 * split across TCP packets, a stream kept alive past a deadline). It is the behaviour under
 * test, never how a test waits for something to happen.
 */
export const upstreamPause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends a JSON response. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** An OpenAI chat.completion.chunk carrying `content` (or a finish reason). */
export function chatChunk(content: string | undefined, finish: string | null = null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }],
    ...extra,
  };
}

export { waitFor } from '@a2a-polyglot/testing';
