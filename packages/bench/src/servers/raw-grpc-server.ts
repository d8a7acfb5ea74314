import type * as GrpcJs from '@grpc/grpc-js';
import { LOOPBACK, type StartedServer } from './started-server.js';

/** Method paths of the raw gRPC ceiling service. */
export const RAW_GRPC_UNARY = '/bench.Raw/Unary';
export const RAW_GRPC_STREAM = '/bench.Raw/Stream';

/** A 130-byte message: the size of the SDK's protobuf StreamResponse for one chunk. */
const STREAM_MESSAGE = Buffer.alloc(130, 0x61);

/**
 * Ceiling: grpc-js with identity (de)serializers on Buffers. Unary echoes the request;
 * the server stream writes K + 3 messages of 130 bytes (metadata `x-k`, `x-pause-ms`,
 * `x-idle`). No protobuf, no A2A: what grpc-js itself costs.
 */
export async function startRawGrpcServer(): Promise<StartedServer> {
  const grpc = require('@grpc/grpc-js') as typeof GrpcJs;
  const identity = (b: Buffer) => b;
  const method = (path: string, responseStream: boolean) => ({
    path,
    requestStream: false,
    responseStream,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: identity,
    responseDeserialize: identity,
  });
  const server = new grpc.Server();
  server.addService({ unary: method(RAW_GRPC_UNARY, false), stream: method(RAW_GRPC_STREAM, true) } as GrpcJs.ServiceDefinition, {
    unary: (call: GrpcJs.ServerUnaryCall<Buffer, Buffer>, callback: GrpcJs.sendUnaryData<Buffer>) => callback(null, call.request),
    stream: (call: GrpcJs.ServerWritableStream<Buffer, Buffer>) => {
      const md = (key: string) => call.metadata.get(key)[0];
      const k = Number(md('x-k') ?? 100);
      const pauseMs = Number(md('x-pause-ms') ?? 0);
      const total = k + 3;
      if (md('x-idle') === '1') {
        call.write(STREAM_MESSAGE);
        return; // held open until the client cancels
      }
      if (pauseMs <= 0) {
        for (let i = 0; i < total; i++) call.write(STREAM_MESSAGE);
        call.end();
        return;
      }
      let i = 0;
      const step = () => {
        if (call.cancelled) return;
        call.write(STREAM_MESSAGE);
        i++;
        if (i >= total) call.end();
        else if (i < 2 || i === total - 1) step();
        else setTimeout(step, pauseMs);
      };
      step();
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${LOOPBACK}:0`, grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return { ports: { grpc: port }, close: async () => server.forceShutdown() };
}
