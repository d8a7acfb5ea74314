import type { Logger } from '@a2a-polyglot/core';
import { closeExecutor } from '@a2a-polyglot/bridges';
import { agentRouter, type RunningGrpcServer } from '@a2a-polyglot/grpc';
import type { AgentInterface } from '@a2a-polyglot/model';
import { AgentMounts, websocketCardInterfaces, type A2AHttpOptions } from '@a2a-polyglot/server';
import { AgentDirectory } from './agent-directory.js';
import { createAgents, defaultAgentOf, SINGLE_AGENT_ID, singleServedAgent, type CreateAgentsOptions, type ServedAgent } from './agents.js';
import { openBackends, type Backends } from './backends.js';
import type { ExecutorConfig } from './config.js';
import { grpcCardInterfaces } from './grpc-listener.js';
import { serviceInstrumentation } from './instrumentation.js';
import { listenerTls, rateLimiterFor } from './listener-security.js';
import { bindingOptions, listenerOptions } from './listener-options.js';
import { startRegistrySync, type RegistrySync } from './registry-sync.js';
import { agentRegistryKind } from './config/derived.js';
import { loadSingleAgent } from './single-agent.js';
import type { Telemetry } from './telemetry.js';
import { serveHandlers } from './serve-handlers.js';
import { endpointsAt, runningExecutor, type RunningExecutor, type StartExecutorOptions } from './running-executor.js';

/**
 * The executor's one composition root, for one agent or N: opens the shared durable backends
 * once, builds every agent on its own partition of them ({@link createAgents}; a single agent is
 * the one-agent case, {@link singleServedAgent}), puts them in one {@link AgentDirectory},
 * starts the agent registry when configured, and serves them all on one listener stack
 * ({@link serveHandlers}) with one shutdown.
 *
 * With `agents`, each (and each of the agent registry) is served under `/agents/{id}` with its
 * own card, RequestHandler and every binding: JSON-RPC and REST under its prefix (JSON-RPC also
 * at `POST /{id}/a2a` and its card at `/{id}/.well-known/agent-card.json`, see `aliasPathOf`),
 * WebSocket at `/agents/{id}/a2a/ws`, gRPC on the shared port addressed by the request's
 * `tenant` or the `a2a-agent` metadata (see `agentRouter`); the default agent is also served
 * at the root. Without `agents`, the single agent (the demo agent, the `agentModule` or
 * `options.executor`) is served at the root only, as it always was: no `/agents/{id}` mount
 * and no gRPC routing by agent, so its URLs, tenants and `/agents` listing stay what they were.
 */
export async function startAgents(
  configured: ExecutorConfig,
  options: StartExecutorOptions,
  logger: Logger,
  telemetry: Telemetry | undefined,
): Promise<RunningExecutor> {
  const gateway = configured.agents.length > 0;
  // First, before anything opens: a single agent's module may bring the card the service serves.
  const single = gateway ? undefined : await loadSingleAgent(configured, options.executor, logger);
  const resolved = single?.config ?? configured;
  const tls = listenerTls(resolved);
  const instrumentation = serviceInstrumentation(options.tracing, telemetry);
  const { metrics } = instrumentation;
  // Cards list what the listeners serve; both are set up below, after the agents exist.
  let directory: AgentDirectory | undefined;
  let grpc: RunningGrpcServer | undefined;
  const grpcInterfaces = (publicBase: string, tenant = ''): AgentInterface[] => (grpc ? grpcCardInterfaces(resolved, publicBase, grpc.port, tenant) : []);
  const common = listenerOptions(resolved, logger);
  // The agent also served at the root: `defaultAgent`, the first of `agents`, or the single agent.
  const defaultId = resolved.defaultAgent ?? resolved.agents[0]?.id ?? SINGLE_AGENT_ID;
  // The default agent's gRPC interface is the root one (no tenant); any other agent's names its id.
  const mountOptions = (agent: ServedAgent): A2AHttpOptions => ({
    ...common,
    ...bindingOptions(resolved),
    handler: agent.handler,
    mountPath: agent.mountPath,
    aliasPath: agent.aliasPath,
    extraInterfaces: (base) => grpcInterfaces(base, agent.id === defaultId ? '' : agent.id),
  });
  const extraInterfaces = (agentBase: string, id: string): AgentInterface[] => {
    const agent = directory?.get(id);
    const options = agent && mountOptions(agent);
    return options ? [...websocketCardInterfaces(options, agentBase), ...(options.extraInterfaces?.(agentBase) ?? [])] : [];
  };
  // One set of durable backends for every agent, each on its own partition (see `scopedBackends`).
  const backends: Backends = await openBackends(resolved, logger);
  const createOptions: CreateAgentsOptions = {
    backends,
    rateLimiter: rateLimiterFor(resolved, backends.redis),
    defaultAgentId: defaultId,
    logger,
    instrumentation,
    registry: options.handlers,
    env: options.env ?? process.env,
    fetch: options.fetch,
    agentHandlers: options.agentHandlers,
    extraInterfaces,
  };
  let agents: ServedAgent[];
  try {
    agents = single ? [singleServedAgent(single, createOptions)] : await createAgents(resolved, createOptions);
  } catch (error) {
    await backends.close().catch(() => undefined);
    throw error;
  }
  const root = defaultAgentOf(resolved, agents);
  const mounts = new AgentMounts();
  const live = new AgentDirectory({ mounts, mountOptions, defaultId: root.id, removalGraceMs: resolved.shutdownGraceMs, metrics, logger });
  directory = live;
  for (const agent of agents) live.add(agent);
  const closeAgents = () => Promise.all(live.list().map((a) => closeExecutor(a.executor)));
  let registry: RegistrySync | undefined;
  try {
    // The registry's agents first, so the first request already finds them.
    if (agentRegistryKind(resolved)) registry = await startRegistrySync(resolved, live, createOptions);
  } catch (error) {
    await Promise.all(live.list().map((a) => a.handler.shutdown(0)));
    await closeAgents();
    await backends.close().catch(() => undefined);
    throw error;
  }
  const served = await serveHandlers({
    config: resolved,
    logger,
    metrics,
    tls,
    backends,
    root: root.handler,
    handlers: () => live.list().map((a) => a.handler),
    grpcInterfaces,
    onGrpc: (bound) => {
      grpc = bound;
    },
    ...(gateway
      ? {
          router: agentRouter(root.handler, { byMetadata: (id) => live.handler(id), byTenant: (id) => (id === root.id ? undefined : live.handler(id)) }),
          mounts,
        }
      : {}),
    closeFirst: [['the agent registry', async () => registry?.close()]],
    closeAfterHandlers: [['the agents', closeAgents]],
  });
  // The agents under `/agents/{id}` (the single agent has no such mount).
  const mounted = () => live.list().filter((a) => a.mountPath !== '');
  const agentsNow = () => mounted().map((a) => ({ id: a.id, handler: a.handler, endpoints: endpointsAt(a.mountPath, resolved.basePath) }));
  return runningExecutor({ config: resolved, listener: served.listener, grpc: served.grpc, handler: root.handler, agents: agentsNow, close: served.close });
}
