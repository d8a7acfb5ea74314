import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { BoundedWriter, eventStreamFrom, type EventStream, heartbeatClock } from '@a2a-polyglot/core';
import type { StreamResponse } from '@a2a-polyglot/model';
import { EndlessSource, waitFor, waitForSteady } from '@a2a-polyglot/testing';
import { NodeSseSink, sseFrame } from '../src/index.js';
import { pipeSse } from './fixtures/node-sse.js';

const EVENT: StreamResponse = {
  payload: {
    $case: 'message',
    value: { messageId: 'm', contextId: '', taskId: '', role: 2, parts: [], metadata: undefined, extensions: [], referenceTaskIds: [] },
  },
};

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((r) => server.close(() => r()));
}

/** A raw client: sends a GET and collects whatever it reads. */
function rawClient(port: number): { socket: Socket; text: () => string } {
  let text = '';
  const socket = connect(port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
  socket.setEncoding('utf8');
  socket.on('data', (c: string) => (text += c));
  socket.on('error', () => undefined);
  return { socket, text: () => text };
}

/** An endless stream that counts how far it was pulled. */
function endless(): { stream: EventStream; pulled: () => number; closed: () => boolean } {
  const source = new EndlessSource(EVENT);
  return { stream: eventStreamFrom(source), pulled: () => source.pulled, closed: () => source.closed };
}

/** A node SSE writer as `deliverSse` makes it, with heartbeats every `heartbeatMs` (0: none). */
function sseWriter(res: ServerResponse, heartbeatMs: number, headers?: Record<string, string>): BoundedWriter<readonly string[]> {
  return new BoundedWriter(new NodeSseSink(res, headers), { heartbeatMs, heartbeat: [': ping\n\n'] });
}

describe('NodeSseSink', () => {
  it('writes SSE headers, id/event/data lines and splits multi-line data', async () => {
    const { server, port } = await serve((_req, res) => {
      const sse = sseWriter(res, 0, { 'a2a-extensions': 'x' });
      sse.write([sseFrame('{"a":1}', 3)]);
      sse.write([sseFrame('one\ntwo', undefined, 'error')]);
      sse.end();
    });
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('connection')).toBe('keep-alive');
      expect(res.headers.get('x-accel-buffering')).toBe('no');
      expect(res.headers.get('a2a-extensions')).toBe('x');
      expect(await res.text()).toBe('id: 3\ndata: {"a":1}\n\nevent: error\ndata: one\ndata: two\n\n');
    } finally {
      await stop(server);
    }
  });

  it('sends `: ping` heartbeat comments while idle, and closes the writer when the client goes', async () => {
    let writer: BoundedWriter<readonly string[]> | undefined;
    const { server, port } = await serve((_req, res) => {
      writer = sseWriter(res, 20);
    });
    try {
      const client = rawClient(port);
      await waitFor(() => client.text().includes(': ping\n\n'));
      client.socket.destroy();
      await waitFor(() => writer?.open === false);
    } finally {
      await stop(server);
    }
  });

  it('puts every open stream of a period on one clock, and takes each off when it closes', async () => {
    const writers: BoundedWriter<readonly string[]>[] = [];
    const clock = heartbeatClock(25);
    const { server, port } = await serve((_req, res) => {
      writers.push(sseWriter(res, 25));
    });
    try {
      const clients = [rawClient(port), rawClient(port), rawClient(port)];
      await waitFor(() => clock.size === 3);
      await waitFor(() => clients.every((c) => c.text().includes(': ping\n\n')));
      clients[0]!.socket.destroy();
      await waitFor(() => clock.size === 2);
      writers[1]!.end();
      writers[2]!.end();
      expect(clock.size).toBe(0);
    } finally {
      await stop(server);
    }
  });
});

describe('SSE delivery on node (deliverSse)', () => {
  it('does not buffer without bound for a client that does not read (backpressure)', async () => {
    const source = endless();
    const frame = JSON.stringify({ pad: 'x'.repeat(16 * 1024) });
    let maxBuffered = 0;
    let highWaterMark = 0;
    let piping: Promise<void> | undefined;
    const { server, port } = await serve((_req, res) => {
      highWaterMark = res.writableHighWaterMark;
      piping = pipeSse(source.stream, res, {
        encode: () => {
          maxBuffered = Math.max(maxBuffered, res.writableLength);
          return frame;
        },
      });
    });
    try {
      const client = rawClient(port);
      client.socket.pause();
      // Wait until the producer stops advancing: the socket buffers are full and the pipe waits for 'drain'.
      const stalledAt = await waitForSteady(() => source.pulled(), { what: 'the producer to stop' });
      expect(stalledAt).toBeLessThan(5000); // 5000 × 16 KiB = 80 MiB would mean no backpressure
      expect(maxBuffered).toBeLessThanOrEqual(highWaterMark + frame.length + 64);
      // Once the client reads again, the stream continues where it stopped, in order.
      client.socket.resume();
      await waitFor(() => source.pulled() > stalledAt + 10);
      const ids = [...client.text().matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
      expect(ids.slice(0, 50)).toEqual(Array.from({ length: Math.min(50, ids.length) }, (_, i) => i + 1));
      client.socket.destroy();
      await waitFor(() => source.closed());
      await piping;
    } finally {
      await stop(server);
    }
  });

  it('ends a stream whose client stopped reading once the stall timeout passes, and closes its source', async () => {
    const source = endless();
    const frame = JSON.stringify({ pad: 'x'.repeat(16 * 1024) });
    let stalls = 0;
    let response: ServerResponse | undefined;
    let piping: Promise<void> | undefined;
    const { server, port } = await serve((_req, res) => {
      response = res;
      piping = pipeSse(source.stream, res, { encode: () => frame, stallTimeoutMs: 100, onStall: () => stalls++ });
    });
    try {
      const client = rawClient(port);
      client.socket.pause();
      await waitFor(() => source.closed(), { what: 'the stalled stream to be closed' });
      await piping;
      expect(stalls).toBe(1);
      expect(response!.destroyed).toBe(true);
      client.socket.destroy();
    } finally {
      await stop(server);
    }
  });

  it('destroys a response ended while its client still does not read, after the stall timeout', async () => {
    let stalls = 0;
    let response: ServerResponse | undefined;
    const { server, port } = await serve((_req, res) => {
      response = res;
      const sink = new NodeSseSink(res);
      const sse = new BoundedWriter(sink, {
        stallTimeoutMs: 100,
        onStall: () => {
          stalls++;
          sink.destroy();
        },
      });
      sse.write([`data: ${'x'.repeat(32 * 1024 * 1024)}\n\n`]);
      sse.end();
    });
    try {
      const client = rawClient(port);
      client.socket.pause();
      await waitFor(() => stalls === 1, { what: 'the stall timeout to destroy the ended response' });
      expect(response!.destroyed).toBe(true);
      client.socket.destroy();
    } finally {
      await stop(server);
    }
  });

  it('closes the stream when the client disconnects while it waits for the next event', async () => {
    let closed = false;
    let release: () => void = () => undefined;
    const stream: EventStream = eventStreamFrom({
      close: () => {
        closed = true;
        release();
      },
      async *[Symbol.asyncIterator]() {
        yield { seq: 1, event: EVENT };
        await new Promise<void>((r) => (release = r));
      },
    });
    let piping: Promise<void> | undefined;
    const { server, port } = await serve((_req, res) => {
      piping = pipeSse(stream, res, { encode: () => '{}' });
    });
    try {
      const client = rawClient(port);
      await waitFor(() => client.text().includes('id: 1\n'));
      client.socket.destroy();
      await waitFor(() => closed);
      await piping;
    } finally {
      await stop(server);
    }
  });

  it('ends the response when the signal aborts, and writes a mid-stream failure as the error frame', async () => {
    const controller = new AbortController();
    const held = endless();
    let firstWritten = false;
    const { server, port } = await serve((req, res) => {
      if (req.url === '/abort') {
        void pipeSse(
          eventStreamFrom({
            close: () => held.stream.close(),
            async *[Symbol.asyncIterator]() {
              yield { seq: 1, event: EVENT };
              firstWritten = true;
              await new Promise(() => undefined);
            },
          }),
          res,
          { encode: () => '{}', signal: controller.signal },
        );
      } else {
        void pipeSse(
          eventStreamFrom({
            close() {},
            async *[Symbol.asyncIterator]() {
              yield { seq: 0, event: EVENT };
              throw new Error('boom');
            },
          }),
          res,
          { encode: () => '{"ok":true}' },
        );
      }
    });
    try {
      const aborted = fetch(`http://127.0.0.1:${port}/abort`).then((r) => r.text());
      await waitFor(() => firstWritten); // the pipe asks for the next event once it wrote the first
      controller.abort();
      expect(await aborted).toBe('id: 1\ndata: {}\n\n');
      expect(held.closed()).toBe(true);
      const failed = await (await fetch(`http://127.0.0.1:${port}/fail`)).text();
      expect(failed).toBe('data: {"ok":true}\n\nevent: error\ndata: {"code":"INTERNAL","message":"Internal error"}\n\n');
    } finally {
      await stop(server);
    }
  });
});
