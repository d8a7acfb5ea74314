import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DELIVERY_TURN_FRAMES } from '@a2a-polyglot/core';
import { ReadySource, TurnProbe, waitFor } from '@a2a-polyglot/testing';
import { pipeSse } from './fixtures/node-sse.js';

/**
 * The node SSE delivery against a source whose events are always ready, over a real socket whose
 * client reads: the socket takes every write at once, so only the loop can let the event
 * loop turn or stop. The source's fuse ends a loop that does neither (the test then fails
 * on the counts instead of hanging).
 */

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((r) => server.close(() => r()));
}

describe('SSE delivery on node: always-ready source', () => {
  it.each([1, 500])('lets the event loop turn at least every DELIVERY_TURN_FRAMES frames (batches of %i)', async (batch) => {
    const fuse = 20 * DELIVERY_TURN_FRAMES;
    const source = new ReadySource({ batch, fuse });
    let encoded = 0;
    const frames = new TurnProbe(() => encoded);
    let piping: Promise<void> | undefined;
    const { server, url } = await serve((_req, res) => {
      frames.start();
      piping = pipeSse(source, res, { encode: () => `{"n":${++encoded}}` });
    });
    try {
      const body = await (await fetch(url)).text();
      await piping;
      frames.stop();
      expect(body.match(/^data: /gm)?.length).toBeGreaterThanOrEqual(fuse); // it did stream everything
      expect(frames.maxBetweenTurns).toBeLessThanOrEqual(DELIVERY_TURN_FRAMES);
    } finally {
      await stop(server);
    }
  });

  it.each([
    ['the response is destroyed', (res: ServerResponse) => res.destroy()],
    ['its socket is destroyed (server closing its connections)', (res: ServerResponse) => res.socket?.destroy()],
  ])('stops at once when %s, before the close event: no frame is encoded for it', async (_what, kill) => {
    let encoded = 0;
    let encodedAtKill = -1;
    let response: ServerResponse | undefined;
    const source = new ReadySource({
      batch: 100,
      onPull: (pulled) => {
        if (pulled !== 200 || !response) return;
        encodedAtKill = encoded;
        kill(response);
      },
    });
    let piping: Promise<void> | undefined;
    const { server, url } = await serve((_req, res) => {
      response = res;
      piping = pipeSse(source, res, { encode: () => `{"n":${++encoded}}` });
    });
    try {
      await fetch(url)
        .then((r) => r.text())
        .catch(() => undefined);
      await waitFor(() => piping !== undefined);
      await piping;
      expect(source.fused).toBe(false);
      expect(source.closed).toBe(true);
      expect(source.pulled).toBe(200);
      expect(encodedAtKill).toBe(100);
      expect(encoded).toBe(encodedAtKill);
    } finally {
      await stop(server);
    }
  });
});
