import { RequestHandler, type Logger } from '@a2a-polyglot/core';
import type { RunningGrpcServer } from '@a2a-polyglot/grpc';
import type { AgentInterface } from '@a2a-polyglot/model';
import { agentHandlerOptions } from './agents.js';
import { openBackends } from './backends.js';
import { buildAgentCard } from './card.js';
import { signedCards } from './card-signing.js';
import type { ExecutorConfig } from './config.js';
import { createDemoAgent } from './demo-agent.js';
import { extendedCardAt } from './extended-card.js';
import { grpcCardInterfaces } from './grpc-listener.js';
import { serviceInstrumentation } from './instrumentation.js';
import { listenerTls, rateLimiterFor } from './listener-security.js';
import { agentModuleCard, loadAgentModule } from './load-agent.js';
import { mergeModuleCard } from './module-card.js';
import type { Telemetry } from './telemetry.js';
import { serveHandlers } from './serve-handlers.js';
import { queueOptions } from './queue-options.js';
import { runningExecutor, type RunningExecutor, type ServedAgentInfo, type StartExecutorOptions } from './running-executor.js';

/** Single-agent mode lists no agents; one array, so every read of `agents` returns the same. */
const NO_AGENTS: readonly ServedAgentInfo[] = [];

/**
 * One agent (the demo agent, an agent module or `options.executor`) at the root, with its
 * stores and event log from the configuration, served by the same listener stack as mounted
 * agents ({@link serveHandlers}) with the same handler options ({@link agentHandlerOptions});
 * the stores are its own, unpartitioned. What still differs from a mounted agent: its card
 * comes from the `agent` section (or its module), its executor from `agentModule` / the demo
 * agent / `options.executor`, and it is served at the root only (no `/agents/{id}` mount, not
 * in the gRPC router, no `closeExecutor` at shutdown).
 */
export async function startSingleAgent(
  configured: ExecutorConfig,
  options: StartExecutorOptions,
  logger: Logger,
  telemetry: Telemetry | undefined,
): Promise<RunningExecutor> {
  const executor =
    options.executor ??
    (configured.agentModule
      ? await loadAgentModule(configured.agentModule, { config: configured, logger })
      : createDemoAgent({ chunkDelayMs: configured.demo.chunkDelayMs }));
  // A module's own card is the base of the served one; what the configuration set overrides it.
  const moduleCard = agentModuleCard(executor);
  const resolved: ExecutorConfig = moduleCard ? { ...configured, agent: mergeModuleCard(configured.agent, moduleCard) } : configured;

  // Bound below, before any request can ask for a card.
  let grpc: RunningGrpcServer | undefined;
  const grpcInterfaces = (publicBase: string): AgentInterface[] => (grpc ? grpcCardInterfaces(resolved, publicBase, grpc.port) : []);

  const card = buildAgentCard(resolved);
  const tls = listenerTls(resolved);
  const backends = await openBackends(resolved, logger);
  const instrumentation = serviceInstrumentation(options.tracing, telemetry);
  const { metrics } = instrumentation;
  const handler = new RequestHandler({
    card,
    executor,
    acceptAnyInputMode: resolved.agent.acceptAnyInputMode,
    // The agent's own stores, unpartitioned: the one-agent case of the mounted agents' handler options.
    ...agentHandlerOptions(resolved, {
      logger,
      instrumentation,
      label: card.name,
      backends: backends.handlerOptions,
      rateLimiter: rateLimiterFor(resolved, backends.redis),
      queue: queueOptions(resolved, backends.queue, '', resolved.agent.retryable),
    }),
    extendedCard: resolved.agent.capabilities.extendedAgentCard ? signedCards(resolved, () => extendedCardAt(card, resolved, '', grpcInterfaces)) : undefined,
  });
  metrics.watch(handler);

  const served = await serveHandlers({
    config: resolved,
    logger,
    metrics,
    tls,
    backends,
    root: handler,
    handlers: () => [handler],
    grpcInterfaces,
    onGrpc: (bound) => {
      grpc = bound;
    },
  });
  return runningExecutor({ config: resolved, listener: served.listener, grpc: served.grpc, handler, agents: () => NO_AGENTS, close: served.close });
}
