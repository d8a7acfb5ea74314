import { createOursBenchAgent } from '../agents/ours-agent.js';
import { LOOPBACK, type StartedServer } from './started-server.js';

type ExecutorModule = typeof import('@a2a-polyglot/executor');
type CoreModule = typeof import('@a2a-polyglot/core');
type GrpcModule = typeof import('@a2a-polyglot/grpc');
type ServerModule = typeof import('@a2a-polyglot/server');
type RunningExecutor = Awaited<ReturnType<ExecutorModule['startExecutor']>>;

/**
 * Our service: `startExecutor` from the executor package (JSON-RPC at `/a2a/rpc`, REST under
 * `/a2a`, one node:http listener) with the benchmark agent, plus the gRPC binding on the
 * same RequestHandler when `@a2a-polyglot/grpc` is present. Packages that are missing or not
 * built are skipped: the ports they would serve are simply absent, and the orchestrator
 * reports the targets as skipped.
 */
export async function startOursServer(): Promise<StartedServer> {
  const { silentLogger } = require('@a2a-polyglot/core') as CoreModule;
  const { startExecutor } = require('@a2a-polyglot/executor') as ExecutorModule;
  const running = await startExecutor(
    { host: LOOPBACK, port: 0, logLevel: 'error', shutdownGraceMs: 0, agent: { capabilities: { streaming: true, pushNotifications: false } } },
    { executor: createOursBenchAgent(), logger: silentLogger },
  );
  const ports: Record<string, number> = { http: Number(new URL(running.url).port) };
  const notes: string[] = [];
  let grpc: GrpcModule | undefined;
  try {
    grpc = require('@a2a-polyglot/grpc') as GrpcModule;
  } catch (error) {
    notes.push(`@a2a-polyglot/grpc unavailable: ${(error as Error).message.split('\n')[0]}`);
  }
  if (grpc) {
    const g = await grpc.startGrpcServer({ handler: running.handler, host: LOOPBACK, port: 0, logger: silentLogger });
    ports.grpc = g.port;
    if (g.sessions) ports.grpcSession = g.port;
  }
  const ws = await startWebSocketListener(running.handler, silentLogger);
  if (typeof ws === 'number') ports.ws = ws;
  else notes.push(ws);
  return { ports, notes };
}

/**
 * Our WebSocket binding on the executor's RequestHandler. The executor has no WebSocket
 * setting yet, so a second node:http listener from `@a2a-polyglot/server` serves it with
 * `websocket: true` (upgrades at `/a2a/ws`). Returns its port, or why there is none.
 */
async function startWebSocketListener(handler: RunningExecutor['handler'], logger: CoreModule['silentLogger']): Promise<number | string> {
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
  return Number(new URL(running.url).port);
}
