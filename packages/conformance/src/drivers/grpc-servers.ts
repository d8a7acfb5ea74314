import type { RequestHandler } from '@a2a-polyglot/core';
import { startGrpcServer } from '@a2a-polyglot/grpc';
import { startA2AServer } from '@a2a-polyglot/server';

/** Where the servers of one gRPC binding under test live. */
export interface GrpcServersUnderTest {
  /** The gRPC address, `127.0.0.1:<port>`. */
  readonly target: string;
  readonly cardUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the gRPC server (standard and session services) for one handler on 127.0.0.1,
 * port 0, plus an HTTP server for card discovery whose card lists it as the GRPC interface.
 * @internal
 */
export async function startGrpcServersUnderTest(handler: RequestHandler): Promise<GrpcServersUnderTest> {
  const grpc = await startGrpcServer({ handler, host: '127.0.0.1', port: 0 });
  try {
    const http = await startA2AServer({
      handler,
      host: '127.0.0.1',
      port: 0,
      extraInterfaces: () => [{ protocolBinding: 'GRPC', url: grpc.url, protocolVersion: '1.0', tenant: '' }],
    });
    return {
      target: grpc.url,
      cardUrl: `${http.url}/.well-known/agent-card.json`,
      close: async () => {
        await Promise.all([grpc.close(1000), http.close()]);
      },
    };
  } catch (error) {
    await grpc.close(0);
    throw error;
  }
}
