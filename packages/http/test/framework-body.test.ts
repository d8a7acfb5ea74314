/**
 * `readJsonBody` / `readBodyText` behind a framework that already read the body (what
 * Express's `express.json()`, `express.text()` and `express.raw()` leave: a spent stream and
 * `req.body`), on a real node:http server.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { readBodyText, readJsonBody } from '../src/index.js';

type Preread = (req: IncomingMessage, raw: Buffer) => unknown;

let server: Server;
let url: string;
/** What the "framework" stores as `req.body` after reading the stream; undefined: leaves no body. */
let preread: Preread | undefined;
let read: (req: IncomingMessage) => Promise<unknown>;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (preread) Object.assign(req, { body: preread(req, Buffer.concat(chunks)) });
    try {
      res.end(JSON.stringify({ ok: await read(req) }));
    } catch (error) {
      res.statusCode = error instanceof A2AError ? 400 : 500;
      res.end(JSON.stringify({ error: (error as Error).message, code: (error as A2AError).code }));
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function post(body: string | ReadableStream, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
  return res.json();
}

const stream = (text: string) => new Blob([text]).stream();
const LIMIT = 100;

describe('a body a framework already read', () => {
  it('reads a parsed object as the JSON value', async () => {
    preread = (_req, raw) => JSON.parse(raw.toString());
    read = (req) => readJsonBody(req, LIMIT);
    expect(await post('{"a":1}')).toEqual({ ok: { a: 1 } });
    expect(await post(stream('{"b":2}'))).toEqual({ ok: { b: 2 } }); // chunked
  });

  it('reads a string or a Buffer as the text', async () => {
    read = (req) => readBodyText(req, LIMIT);
    preread = (_req, raw) => raw.toString();
    expect(await post('plain text')).toEqual({ ok: 'plain text' });
    preread = (_req, raw) => raw;
    expect(await post('raw bytes')).toEqual({ ok: 'raw bytes' });
    read = (req) => readJsonBody(req, LIMIT);
    expect(await post('{"c":3}')).toEqual({ ok: { c: 3 } });
  });

  it('reads an empty body as undefined, even when the parser made it `{}`', async () => {
    preread = () => ({});
    read = (req) => readJsonBody(req, LIMIT);
    expect(await post('')).toEqual({});
  });

  it('still enforces the limit, by Content-Length or by the parsed size', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(2 * LIMIT) });
    read = (req) => readJsonBody(req, LIMIT);
    for (const make of [(_req: IncomingMessage, raw: Buffer) => JSON.parse(raw.toString()), (_req: IncomingMessage, raw: Buffer) => raw.toString()]) {
      preread = make;
      expect((await post(big)).code).toBe(A2AErrorCode.PayloadTooLarge);
      expect((await post(stream(big))).code).toBe(A2AErrorCode.PayloadTooLarge);
    }
  });

  it('fails, instead of waiting forever, on a spent stream that left no body', async () => {
    preread = undefined;
    read = (req) => readJsonBody(req, LIMIT);
    expect((await post('{"d":4}')).error).toMatch(/already read/);
  });
});
