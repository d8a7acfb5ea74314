import { type Server as GrpcServer, ServerCredentials } from '@grpc/grpc-js';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

/** Where an official-SDK server listens, each listener behind a TCP proxy the tests can cut. */
export interface SdkListeners {
  /** `http://host:port` of the proxy in front of the HTTP server (card, JSON-RPC, REST). */
  readonly base: string;
  /** `host:port` of the proxy in front of the gRPC server. */
  readonly grpcAddress: string;
  readonly proxy: TcpProxy;
  readonly grpcProxy: TcpProxy;
  /** Closes the proxies, then the HTTP server (its open connections too) and the gRPC server. */
  close(): Promise<void>;
}

/**
 * Starts an official-SDK server's express `app` and gRPC `grpc` server on loopback, port 0, each
 * behind a TCP proxy: the SDK servers the interop tests run (1.x and 0.3) are wired the same way,
 * only the SDK handlers they mount differ, so the listening, proxying and closing is one copy.
 */
export async function listenBehindProxies(app: { listen(port: number, host: string, ready: () => void): HttpServer }, grpc: GrpcServer): Promise<SdkListeners> {
  const http: HttpServer = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const proxy = await startTcpProxy({ host: '127.0.0.1', port: (http.address() as AddressInfo).port });
  const port = await new Promise<number>((resolve, reject) =>
    grpc.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  const grpcProxy = await startTcpProxy({ host: '127.0.0.1', port });
  return {
    base: `http://${proxy.address}`,
    grpcAddress: grpcProxy.address,
    proxy,
    grpcProxy,
    async close() {
      await proxy.close();
      await grpcProxy.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      grpc.forceShutdown();
    },
  };
}
