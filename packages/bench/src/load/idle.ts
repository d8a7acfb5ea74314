import type { WebSocket as WsClient } from 'ws';
import { grpcRequestHeaderBlock } from './hpack-encode.js';
import { H2GrpcConnection } from './h2-grpc-client.js';
import { grpcPartOf, httpPartOf, ID_PLACEHOLDER, wsPartOf, type IdleJob, type IdleResult } from './job.js';
import { RawHttpConnection } from './raw-http-client.js';
import { classifyA2aFrame } from './ws-slot.js';
import { SseCounter } from './sse-counter.js';

/** Streams held open by {@link openIdleStreams}; `close()` drops them all. */
export interface IdleHold {
  close(): void;
}

/**
 * Opens `job.streams` streams (SSE over one connection each, gRPC as many calls per HTTP/2
 * connection as the server allows, ws one socket each), each counted as open once its first
 * event arrived, `openConcurrency` at a time. Bounded by `timeoutMs` overall.
 */
export async function openIdleStreams(job: IdleJob): Promise<{ result: IdleResult; hold: IdleHold }> {
  const spec = job.request;
  const started = Date.now();
  const deadline = started + job.timeoutMs;
  const closers: Array<() => void> = [];
  const h2: H2GrpcConnection[] = [];
  let opened = 0;
  let failed = 0;
  let firstError: string | undefined;
  let next = 0;

  const openOne = async (i: number): Promise<void> => {
    const id = String(i).padStart(12, '0');
    if (spec.protocol === 'http') {
      const conn = await RawHttpConnection.connect(spec.host, spec.port);
      closers.push(() => conn.close());
      const sse = new SseCounter();
      await new Promise<void>((resolve, reject) => {
        conn.send(Buffer.from(httpPartOf(spec).replace(ID_PLACEHOLDER, id), 'utf8'), {
          onHead: (status) => {
            if (status !== 200) reject(new Error(`HTTP ${status}`));
          },
          onBody: (chunk) => {
            if (sse.push(chunk) > 0) resolve();
          },
          onEnd: () => reject(new Error('stream ended instead of idling')),
          onError: reject,
        });
      });
      return;
    }
    if (spec.protocol === 'grpc') {
      let conn = h2[h2.length - 1];
      if (!conn?.alive || conn.inFlight >= conn.maxConcurrentStreams) {
        conn = await H2GrpcConnection.connect(spec.host, spec.port);
        h2.push(conn);
        const c = conn;
        closers.push(() => c.close());
      }
      const g = grpcPartOf(spec);
      const message = Buffer.from(Buffer.from(g.messageB64, 'base64').toString('latin1').replace(ID_PLACEHOLDER, id), 'latin1');
      const header = grpcRequestHeaderBlock(g.path, `${spec.host}:${spec.port}`, g.metadata);
      await new Promise<void>((resolve, reject) => {
        let got = false;
        conn.call(header, message, {
          onMessage: () => {
            got = true;
            resolve();
          },
          onEnd: (_ok, error) => (got ? undefined : reject(new Error(error ?? 'stream ended instead of idling'))),
        });
      });
      return;
    }
    const { WebSocket } = require('ws') as typeof import('ws');
    const w = wsPartOf(spec);
    const ws: WsClient = new WebSocket(`ws://${spec.host}:${spec.port}${w.path ?? '/'}`, [...(w.subprotocols ?? [])], { perMessageDeflate: false });
    closers.push(() => ws.terminate());
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => ws.send(w.text.replace(ID_PLACEHOLDER, id)));
      ws.on('message', (data: Buffer) => {
        const kind = w.framing === 'a2a' ? classifyA2aFrame(data, false) : 'event';
        if (kind === 'event') resolve();
        else if (kind !== 'start') reject(new Error(`stream ended instead of idling: ${data.toString('utf8').slice(0, 160)}`));
      });
      ws.once('error', reject);
      ws.once('close', () => reject(new Error('websocket closed')));
    });
  };

  const worker = async () => {
    while (next < job.streams && Date.now() < deadline) {
      const i = next++;
      try {
        await withTimeout(openOne(i), Math.max(1, deadline - Date.now()));
        opened++;
      } catch (error) {
        failed++;
        firstError ??= (error as Error).message;
      }
    }
  };
  // gRPC streams share connections, so they are opened one connection-filling at a time.
  const workers = spec.protocol === 'grpc' ? 1 : Math.max(1, Math.min(job.openConcurrency, job.streams));
  await Promise.all(Array.from({ length: workers }, worker));
  return {
    result: { opened, failed, ms: Date.now() - started, connections: spec.protocol === 'grpc' ? h2.length : opened, firstError },
    hold: {
      close: () => {
        for (const c of closers) c();
      },
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not open within ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
