import type { WebSocket as WsSocket, WebSocketServer as WsServer } from 'ws';
import { rawStreamEvent, rawStreamIds } from './raw-events.js';
import { LOOPBACK, type StartedServer } from './started-server.js';

const S = 's'.charCodeAt(0);
const P = 'p'.charCodeAt(0);
const I = 'i'.charCodeAt(0);

/**
 * Ceiling: a `ws` server (no permessage-deflate) that echoes each message. Text commands
 * `stream K`, `pause K MS` and `idle` make it send K + 3 stream events (or one and hold).
 */
export async function startRawWsServer(): Promise<StartedServer> {
  const { WebSocketServer } = require('ws') as { WebSocketServer: typeof WsServer };
  const wss = new WebSocketServer({ host: LOOPBACK, port: 0, perMessageDeflate: false, clientTracking: false });
  wss.on('connection', (ws: WsSocket) => {
    ws.on('error', () => ws.terminate());
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      const first = data[0];
      if (isBinary || (first !== S && first !== P && first !== I)) {
        ws.send(data, { binary: isBinary });
        return;
      }
      const [word, a, b] = data.toString('utf8').split(' ');
      const k = Number(a ?? 100) || 100;
      const ids = rawStreamIds();
      if (word === 'idle') {
        ws.send(rawStreamEvent(0, k, ids));
        return;
      }
      const pauseMs = word === 'pause' ? Number(b ?? 0) : 0;
      const total = k + 3;
      if (pauseMs <= 0) {
        for (let i = 0; i < total; i++) ws.send(rawStreamEvent(i, k, ids));
        return;
      }
      let i = 0;
      const step = () => {
        if (ws.readyState !== ws.OPEN) return;
        ws.send(rawStreamEvent(i, k, ids));
        i++;
        if (i >= total) return;
        if (i < 2 || i === total - 1) step();
        else setTimeout(step, pauseMs);
      };
      step();
    });
  });
  await new Promise<void>((resolve) => (wss.address() ? resolve() : wss.once('listening', () => resolve())));
  const address = wss.address();
  return { ports: { ws: typeof address === 'object' && address ? address.port : 0 }, close: () => new Promise<void>((resolve) => wss.close(() => resolve())) };
}
