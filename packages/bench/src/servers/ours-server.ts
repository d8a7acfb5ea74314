import { createOursBenchAgent } from '../agents/ours-agent.js';
import { LOOPBACK, type StartedServer } from './started-server.js';

type ExecutorModule = typeof import('@a2a-polyglot/executor');
type CoreModule = typeof import('@a2a-polyglot/core');

type ExecutorInput = import('@a2a-polyglot/executor').ExecutorConfigInput;

/**
 * Settings of an `ours` server started with a JSON argument: storage (the durable scenario),
 * the protocol versions served (the long-poll scenario turns the A2A 1.1 draft on), and `bare`
 * (the bare row: a silent logger instead of the executor's own). Passed to `startExecutor` as
 * they are.
 */
export interface OursStorage {
  readonly store?: ExecutorInput['store'];
  readonly eventLog?: ExecutorInput['eventLog'];
  readonly instanceId?: string;
  readonly protocol?: ExecutorInput['protocol'];
  readonly bare?: boolean;
}

/**
 * Our service as `npm start` composes it: `startExecutor` from the executor package with the
 * benchmark agent, the executor's own logger at `info` (pino, redaction, one line per finished
 * task, written to the child's stdout, which the harness discards), metrics and default limits.
 * It serves JSON-RPC at `/a2a/rpc`, REST under `/a2a` and WebSocket at `/a2a/ws` on one
 * node:http listener, and the standard and session gRPC services on its own gRPC listener
 * (`grpcPort: 0`, a free port), all from one RequestHandler. The one setting `npm start` would
 * not have: the WebSocket flood guard is raised (`websocket.maxMessagesPerSecond`), since a
 * closed-loop load client sends far more than the 100 frames/s a browser is allowed.
 *
 * `bare: true` is the same composition with a silent logger: the row beside it shows what
 * logging costs.
 */
export async function startOursServer(storage: OursStorage = {}): Promise<StartedServer> {
  const { silentLogger } = require('@a2a-polyglot/core') as CoreModule;
  const { startExecutor } = require('@a2a-polyglot/executor') as ExecutorModule;
  const { bare, ...settings } = storage;
  const running = await startExecutor(
    {
      host: LOOPBACK,
      port: 0,
      grpcPort: 0,
      logLevel: 'info',
      logFormat: 'json',
      shutdownGraceMs: 0,
      websocket: { maxMessagesPerSecond: 1_000_000_000, messageBurst: 1_000_000_000 },
      agent: { capabilities: { streaming: true, pushNotifications: false } },
      ...settings,
    },
    { executor: createOursBenchAgent(), ...(bare ? { logger: silentLogger } : {}) },
  );
  const ports: Record<string, number> = { http: Number(new URL(running.url).port), ws: Number(new URL(running.url).port) };
  const notes: string[] = [];
  if (running.grpc) {
    // The executor's gRPC listener serves A2AService and A2ASessionService on one port.
    ports.grpc = running.grpc.port;
    ports.grpcSession = running.grpc.port;
  } else notes.push('the executor serves no gRPC: the ours gRPC targets are skipped');
  return { ports, notes, close: () => running.close() };
}
