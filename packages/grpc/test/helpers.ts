import {
  BAD_REQUEST_TYPE,
  ERROR_INFO_TYPE,
  GRPC_STATUS_DETAILS_KEY,
  RequestHandler,
  silentLogger,
  type PushSender,
  type RequestHandlerOptions,
} from '@a2a-polyglot/core';
import { Gates, scriptedAgent, testAgentCard } from '@a2a-polyglot/testing';
import type { AgentCard, StreamResponse } from '@a2a-polyglot/model';
import { BadRequest, ErrorInfo, Status } from '@a2a-polyglot/model/rpc';
import { Client, credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { startGrpcServer, type StartGrpcServerOptions, type RunningGrpcServer } from '../src/index.js';

/** The extension URI the test card declares (optional). */
export const TEST_EXTENSION = 'urn:a2a-polyglot:test-extension';

/** The shared test card with every capability on, and one optional extension. */
export function testCard(overrides: Partial<AgentCard> = {}): AgentCard {
  return testAgentCard({
    name: 'grpc-test',
    description: 'test agent for the gRPC binding',
    capabilities: {
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: true,
      extensions: [{ uri: TEST_EXTENSION, description: 'test', required: false, params: undefined }],
    },
    ...overrides,
  });
}

/** The gates and the one scripted agent of the tests (its commands: see `scriptedAgent` in @a2a-polyglot/testing). */
export { Gates, scriptedAgent } from '@a2a-polyglot/testing';

/** A push sender that records instead of sending. */
export function recordingPushSender(): PushSender & { sent: StreamResponse[] } {
  const sent: StreamResponse[] = [];
  return { sent, send: async (_config, event) => void sent.push(event) };
}

/** A running server with its handler, for one test file. */
export interface TestServer {
  readonly server: RunningGrpcServer;
  readonly handler: RequestHandler;
  readonly gates: Gates;
  readonly url: string;
  close(): Promise<void>;
}

/** Starts handler + gRPC server on 127.0.0.1, port 0. */
export async function startTestServer(
  options: { grpc?: Omit<StartGrpcServerOptions, 'handler'>; handler?: Partial<RequestHandlerOptions> } = {},
): Promise<TestServer> {
  const gates = new Gates();
  const handler = new RequestHandler({
    card: testCard(),
    executor: scriptedAgent(gates),
    logger: silentLogger,
    pushSender: recordingPushSender(),
    allowPrivateWebhooks: true,
    extendedCard: () => testCard({ name: 'grpc-test (extended)' }),
    ...options.handler,
  });
  const server = await startGrpcServer({ handler, host: '127.0.0.1', port: 0, logger: silentLogger, ...options.grpc });
  return {
    server,
    handler,
    gates,
    url: server.url,
    async close() {
      await server.close(1000);
      await handler.shutdown(0);
    },
  };
}

/** Collects an async iterable (bounded by the jest timeout). */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

export { waitFor, waitForSteady } from '@a2a-polyglot/testing';
/** The shared SendMessage builder, under the name this package's tests use. */
export { userSend as userMessage } from '@a2a-polyglot/testing';

/** Outcome of a raw unary call. */
export interface RawOutcome {
  readonly error?: ServiceError;
  readonly response?: Buffer;
}

/**
 * A unary call with raw bytes and exactly the given metadata (no a2a-version unless given):
 * for malformed input, missing service parameters and reading the raw trailers.
 */
export function rawUnary(url: string, path: string, bytes: Buffer, metadata: Record<string, string> = { 'a2a-version': '1.0' }): Promise<RawOutcome> {
  const client = new Client(url, credentials.createInsecure());
  const md = new Metadata();
  for (const [k, v] of Object.entries(metadata)) md.set(k, v);
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      path,
      (b: Buffer) => b,
      (b: Buffer) => b,
      bytes,
      md,
      { deadline: Date.now() + 10_000 },
      (error: ServiceError | null, response?: Buffer) => {
        client.close();
        resolve(error ? { error } : { response });
      },
    );
  });
}

/** The ErrorInfo and BadRequest carried in a raw error's `grpc-status-details-bin` trailer. */
export function detailsOf(error: ServiceError): { code: number; message: string; info?: ErrorInfo; badRequest?: BadRequest } {
  const raw = error.metadata.get(GRPC_STATUS_DETAILS_KEY)[0];
  if (!Buffer.isBuffer(raw)) throw new Error('no grpc-status-details-bin trailer');
  const status = Status.decode(raw);
  const out: { code: number; message: string; info?: ErrorInfo; badRequest?: BadRequest } = { code: status.code, message: status.message };
  for (const d of status.details) {
    if (d.typeUrl === ERROR_INFO_TYPE) out.info = ErrorInfo.decode(d.value);
    if (d.typeUrl === BAD_REQUEST_TYPE) out.badRequest = BadRequest.decode(d.value);
  }
  return out;
}
