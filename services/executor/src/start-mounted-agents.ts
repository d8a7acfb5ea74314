import type { Logger } from '@a2a-polyglot/core';
import { closeExecutor } from '@a2a-polyglot/bridges';
import { agentRouter, type RunningGrpcServer } from '@a2a-polyglot/grpc';
import type { AgentInterface } from '@a2a-polyglot/model';
import { AgentMounts, websocketCardInterfaces, type A2AHttpOptions } from '@a2a-polyglot/server';
import { AgentDirectory } from './agent-directory.js';
import { createAgents, defaultAgentOf, type ServedAgent } from './agents.js';
import { openBackends, type Backends } from './backends.js';
import { ConfigError, type ExecutorConfig } from './config.js';
import { grpcCardInterfaces } from './grpc-listener.js';
import { serviceInstrumentation } from './instrumentation.js';
import { listenerTls, rateLimiterFor } from './listener-security.js';
import { bindingOptions, listenerOptions } from './listener-options.js';
import { startRegistrySync, type RegistrySync } from './registry-sync.js';
import { agentRegistryKind } from './config/derived.js';
import type { Telemetry } from './telemetry.js';
import { serveHandlers } from './serve-handlers.js';
import { endpointsAt, runningExecutor, type RunningExecutor, type StartExecutorOptions } from './running-executor.js';

/**
 * Several agents on one listener: each of `agents` (and of the agent registry, when
 * configured) under `/agents/{id}` with its own card, RequestHandler and every binding:
 * JSON-RPC and REST under its prefix (JSON-RPC also at `POST /{id}/a2a` and its card at
 * `/{id}/.well-known/agent-card.json`, see `aliasPathOf`), WebSocket at `/agents/{id}/a2a/ws`, gRPC on the shared
 * port addressed by the request's `tenant` or the `a2a-agent` metadata (see `agentRouter`).
 * The default agent is also served at the root, exactly as a single agent is.
 */
export async function startMountedAgents(
  resolved: ExecutorConfig,
  options: StartExecutorOptions,
  logger: Logger,
  telemetry: Telemetry | undefined,
): Promise<RunningExecutor> {
  const firstEntry = resolved.agents[0];
  if (!firstEntry) throw new ConfigError('Invalid configuration: "agents" is empty; list at least one agent, or leave it out to serve a single agent');
  const tls = listenerTls(resolved);
  const instrumentation = serviceInstrumentation(options.tracing, telemetry);
  const { metrics } = instrumentation;
  // Cards list what the listeners serve; both are set up below, after the agents exist.
  let directory: AgentDirectory | undefined;
  let grpc: RunningGrpcServer | undefined;
  const defaultId = resolved.defaultAgent ?? firstEntry.id;
  const grpcInterfaces = (publicBase: string, tenant = ''): AgentInterface[] => (grpc ? grpcCardInterfaces(resolved, publicBase, grpc.port, tenant) : []);
  const common = listenerOptions(resolved, logger);
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
  const createOptions = {
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
    agents = await createAgents(resolved, createOptions);
  } catch (error) {
    await backends.close().catch(() => undefined);
    throw error;
  }
  const root = defaultAgentOf(resolved, agents);
  const mounts = new AgentMounts();
  const live = new AgentDirectory({ mounts, mountOptions, defaultId: root.id, removalGraceMs: resolved.shutdownGraceMs, metrics, logger });
  directory = live;
  for (const agent of agents) live.add(agent);
  let registry: RegistrySync | undefined;
  try {
    // The registry's agents first, so the first request already finds them.
    if (agentRegistryKind(resolved)) registry = await startRegistrySync(resolved, live, createOptions);
  } catch (error) {
    await Promise.all(live.list().map((a) => a.handler.shutdown(0)));
    await Promise.all(live.list().map((a) => closeExecutor(a.executor)));
    await backends.close().catch(() => undefined);
    throw error;
  }
  const closeAgents = () => Promise.all(live.list().map((a) => closeExecutor(a.executor)));
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
    router: agentRouter(root.handler, { byMetadata: (id) => live.handler(id), byTenant: (id) => (id === root.id ? undefined : live.handler(id)) }),
    mounts,
    closeFirst: [['the agent registry', async () => registry?.close()]],
    closeAfterHandlers: [['the agents', closeAgents]],
  });
  const agentsNow = () => live.list().map((a) => ({ id: a.id, handler: a.handler, endpoints: endpointsAt(a.mountPath, resolved.basePath) }));
  return runningExecutor({ config: resolved, listener: served.listener, grpc: served.grpc, handler: root.handler, agents: agentsNow, close: served.close });
}
