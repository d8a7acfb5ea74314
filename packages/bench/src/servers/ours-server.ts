import { createOursBenchAgent } from '../agents/ours-agent.js';
import { LOOPBACK, type StartedServer } from './started-server.js';

type ExecutorModule = typeof import('@a2a-polyglot/executor');
type CoreModule = typeof import('@a2a-polyglot/core');
type GrpcModule = typeof import('@a2a-polyglot/grpc');

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
  return { ports, notes };
}
