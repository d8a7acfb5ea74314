import { checkReadiness, type Logger, type RequestHandler } from '@a2a-polyglot/core';
import type { CallRouter, RunningGrpcServer } from '@a2a-polyglot/grpc';
import type { A2AMetrics } from '@a2a-polyglot/metrics';
import type { AgentInterface } from '@a2a-polyglot/model';
import { startA2AServer, type AgentMounts, type RunningA2AServer } from '@a2a-polyglot/server';
import type { Backends } from './backends.js';
import type { ExecutorConfig } from './config.js';
import { GRPC_CLOSE_GRACE_MS, startGrpc } from './grpc-listener.js';
import type { ListenerTls } from './listener-security.js';
import { rootListenerOptions } from './listener-options.js';
import { closeOnceInSteps, type CloseStep } from './running-executor.js';
import { opensListeners } from './worker-role.js';

/** What {@link serveHandlers} serves: the request handlers built on `backends`, the root one first. */
export interface ServedHandlers {
  readonly config: ExecutorConfig;
  readonly logger: Logger;
  readonly metrics: A2AMetrics;
  readonly tls: ListenerTls | undefined;
  /** The stores every handler shares, opened once and closed once, after every handler. */
  readonly backends: Backends;
  /** The handler at the root paths (the single agent, or the default agent). */
  readonly root: RequestHandler;
  /** Every handler served now, the root one included (an agent registry adds and removes some). */
  readonly handlers: () => readonly RequestHandler[];
  /** The root card's gRPC interfaces; empty until the gRPC port is bound. */
  readonly grpcInterfaces: (publicBase: string) => AgentInterface[];
  /** Learns the bound gRPC server, before the first card request can need its port. */
  readonly onGrpc?: (grpc: RunningGrpcServer | undefined) => void;
  /** With several agents: gRPC calls to each by tenant or metadata, and the HTTP mounts. */
  readonly router?: CallRouter;
  readonly mounts?: AgentMounts;
  /** Shutdown steps before the handlers stop (the agent registry); also run when the start fails. */
  readonly closeFirst?: readonly CloseStep[];
  /** Shutdown steps after the handlers, before the listeners (the agents' executors); also run when the start fails. */
  readonly closeAfterHandlers?: readonly CloseStep[];
}

/** The started listeners (none for a worker, see {@link opensListeners}) and the service's `close`. */
export interface ServingHandlers {
  readonly listener: RunningA2AServer | undefined;
  readonly grpc: RunningGrpcServer | undefined;
  readonly close: () => Promise<void>;
}

/**
 * The one listener stack of the executor, for one agent or several: the startup lease sweep
 * of every handler, gRPC (first: the card lists its port), the HTTP listener with readiness
 * over the backends' probes, and the shutdown in order: handlers (refuse new calls, let tasks
 * finish or fail them, flush pushes, so streams on every binding see the final events), then
 * the listeners, then the shared stores, once. On a failed start everything opened is closed.
 * A worker (`role: "worker"`) opens no listener at all: the same sweep and shutdown, no port.
 */
export async function serveHandlers(s: ServedHandlers): Promise<ServingHandlers> {
  const { config, logger, backends } = s;
  const stopHandlers = (graceMs: number) => Promise.all(s.handlers().map((h) => h.shutdown(graceMs)));
  let grpc: RunningGrpcServer | undefined;
  let listener: RunningA2AServer | undefined;
  try {
    if (backends.handlerOptions.cluster) {
      // The startup sweep, each handler on its partition: fail at once what this instance (same id) ran when it last stopped.
      const failed = (await Promise.all(s.handlers().map((h) => h.recoverAbandoned({ includeOwn: true })))).reduce((n, f) => n + f, 0);
      logger.info(failed > 0 ? { recoveredTasks: failed } : {}, `Storage: ${backends.description}`);
    }
    if (opensListeners(config)) {
      // Draining is service-wide: every handler shuts down together.
      const readiness = () => checkReadiness({ draining: () => s.handlers().some((h) => h.draining), checks: backends.checks });
      grpc = await startGrpc(s.root, config, logger, readiness, s.tls?.grpc, s.router);
      s.onGrpc?.(grpc);
      listener = await startA2AServer({
        handler: s.root,
        ...rootListenerOptions(config, logger, { readiness, metrics: s.metrics, grpcInterfaces: s.grpcInterfaces, tls: s.tls }),
        ...(s.mounts ? { mounts: s.mounts } : {}),
      });
    }
  } catch (error) {
    await grpc?.close(0);
    for (const [, run] of s.closeFirst ?? []) await run().catch(() => undefined);
    await stopHandlers(0);
    for (const [, run] of s.closeAfterHandlers ?? []) await run().catch(() => undefined);
    await backends.close().catch(() => undefined);
    throw error;
  }
  const close = closeOnceInSteps(config, logger, [
    ...(s.closeFirst ?? []),
    ['the request handlers', () => stopHandlers(config.shutdownGraceMs)],
    ...(s.closeAfterHandlers ?? []),
    ['the listeners', () => Promise.all([listener?.close(), grpc?.close(GRPC_CLOSE_GRACE_MS)])],
    // Once, after every handler: they all share these.
    ['the stores', () => backends.close()],
  ]);
  return { listener, grpc, close };
}
