import { createOursBenchAgent } from '../agents/ours-agent.js';
import { LOOPBACK, type StartedServer } from './started-server.js';

type ExecutorModule = typeof import('@a2a-polyglot/executor');
type CoreModule = typeof import('@a2a-polyglot/core');
type ServerModule = typeof import('@a2a-polyglot/server');
type RunningExecutor = Awaited<ReturnType<ExecutorModule['startExecutor']>>;

type ExecutorInput = import('@a2a-polyglot/executor').ExecutorConfigInput;

/**
 * Settings of an `ours` server started with a JSON argument: storage (the durable scenario) and
 * the protocol versions served (the long-poll scenario turns the A2A 1.1 draft on). Passed to
 * `startExecutor` as they are.
 */
export interface OursStorage {
  readonly store?: ExecutorInput['store'];
  readonly eventLog?: ExecutorInput['eventLog'];
  readonly instanceId?: string;
  readonly protocol?: ExecutorInput['protocol'];
}

/**
 * Our service: `startExecutor` from the executor package with the benchmark agent. It serves
 * JSON-RPC at `/a2a/rpc` and REST under `/a2a` on one node:http listener, and the standard and
 * session gRPC services on its own gRPC listener (`grpcPort: 0`, a free port), all from one
 * RequestHandler. The executor's WebSocket endpoint cannot be used for load (see
 * {@link startWebSocketListener}), so a second listener serves it.
 */
export async function startOursServer(storage: OursStorage = {}): Promise<StartedServer> {
  const { silentLogger } = require('@a2a-polyglot/core') as CoreModule;
  const { startExecutor } = require('@a2a-polyglot/executor') as ExecutorModule;
  const running = await startExecutor(
    {
      host: LOOPBACK,
      port: 0,
      grpcPort: 0,
      logLevel: 'error',
      shutdownGraceMs: 0,
      agent: { capabilities: { streaming: true, pushNotifications: false } },
      ...storage,
    },
    { executor: createOursBenchAgent(), logger: silentLogger },
  );
  const ports: Record<string, number> = { http: Number(new URL(running.url).port) };
  const notes: string[] = [];
  if (running.grpc) {
    // The executor's gRPC listener serves A2AService and A2ASessionService on one port.
    ports.grpc = running.grpc.port;
    ports.grpcSession = running.grpc.port;
  } else notes.push('the executor serves no gRPC: the ours gRPC targets are skipped');
  const ws = await startWebSocketListener(running.handler, silentLogger);
  if (typeof ws === 'string') notes.push(ws);
  else ports.ws = ws.port;
  const close = async () => {
    if (typeof ws !== 'string') await ws.close();
    await running.close();
  };
  return { ports, notes, close };
}

/**
 * Our WebSocket binding on the executor's RequestHandler. The executor serves `/a2a/ws` itself,
 * but with `websocket: true` and no setting for the binding's per-socket inbound rate limit
 * (100 frames/s): a closed-loop client exceeds it within a second and is closed. So a second
 * node:http listener from `@a2a-polyglot/server` serves the same handler with the limit
 * lifted (upgrades at `/a2a/ws`). Returns its port, or why there is none.
 */
async function startWebSocketListener(
  handler: RunningExecutor['handler'],
  logger: CoreModule['silentLogger'],
): Promise<{ port: number; close: () => Promise<void> } | string> {
  try {
    require.resolve('@a2a-polyglot/websocket');
  } catch {
    return '@a2a-polyglot/websocket is missing or not built: ours-ws is skipped';
  }
  const { startA2AServer } = require('@a2a-polyglot/server') as ServerModule;
  // The per-socket inbound rate limit (a flood policy, 100 frames/s by default) would close a
  // closed-loop client within a second: it is lifted here, everything else keeps its default.
  // `websocket` is passed untyped so this compiles against a server package without the option.
  const websocket = { maxMessagesPerSecond: 1e9, messageBurst: 1e9 };
  const options = { handler, host: LOOPBACK, port: 0, basePath: '/a2a', logger, websocket } as Parameters<ServerModule['startA2AServer']>[0];
  const running = await startA2AServer(options);
  if (!(running as { websocket?: unknown }).websocket) {
    await running.close();
    return '@a2a-polyglot/server does not serve the WebSocket binding (no `websocket` option): ours-ws is skipped';
  }
  return { port: Number(new URL(running.url).port), close: () => running.close() };
}
