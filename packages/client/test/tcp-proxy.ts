/**
 * A tiny TCP proxy on 127.0.0.1 that the tests control: it can cut every open connection
 * (a dropped network path), freeze them (a server that stops answering), or swallow new
 * connections without ever answering (a black hole). Bytes are passed through untouched, so
 * it works for HTTP/1.1 (JSON-RPC, REST, SSE) and HTTP/2 (gRPC) alike.
 */
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** `127.0.0.1:port` */
  readonly address: string;
  readonly port: number;
  /** Connections accepted so far. */
  readonly connections: number;
  /** Destroys every open connection (both sides). */
  cutAll(): void;
  /**
   * Stops forwarding on the open connections: they stay open and silent, and are reset when
   * the client sends on them again. New connections still work.
   */
  freezeAll(): void;
  /** While on, new connections are accepted and never forwarded. */
  blackhole(on: boolean): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<{ client: Socket; upstream: Socket | undefined; frozen: boolean }>();
  let holes = false;
  let accepted = 0;
  const server: Server = createServer((client) => {
    accepted++;
    const pair = { client, upstream: undefined as Socket | undefined, frozen: false };
    pairs.add(pair);
    client.on('error', () => undefined);
    client.on('close', () => {
      pair.upstream?.destroy();
      pairs.delete(pair);
    });
    if (holes) return; // accepted, never answered
    const upstream = connect(target.port, target.host);
    pair.upstream = upstream;
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
    client.on('data', (chunk) => {
      // A frozen path is dead: the next request on it gets a reset, as from a middlebox that forgot it.
      if (pair.frozen) {
        client.destroy();
        upstream.destroy();
      } else upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!pair.frozen) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    address: `127.0.0.1:${port}`,
    port,
    get connections() {
      return accepted;
    },
    cutAll() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
    },
    freezeAll() {
      for (const pair of pairs) pair.frozen = true;
    },
    blackhole(on) {
      holes = on;
    },
    close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
