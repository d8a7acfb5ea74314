import { checkReadiness, type Logger } from '@a2a-polyglot/core';
import { closeExecutor } from '@a2a-polyglot/bridges';
import { agentRouter, type RunningGrpcServer } from '@a2a-polyglot/grpc';
import type { AgentInterface } from '@a2a-polyglot/model';
import { AgentMounts, startA2AServer, websocketCardInterfaces, type A2AHttpOptions, type RunningA2AServer } from '@a2a-polyglot/server';
import { AgentDirectory } from './agent-directory.js';
import { createAgents, defaultAgentOf, type ServedAgent } from './agents.js';
import { ConfigError, eventLogKind, storeKind, type ExecutorConfig } from './config.js';
import { GRPC_CLOSE_GRACE_MS, grpcCardInterfaces, startGrpc } from './grpc-listener.js';
import { serviceInstrumentation } from './instrumentation.js';
import { listenerTls } from './listener-security.js';
import { bindingOptions, listenerOptions, rootListenerOptions } from './listener-options.js';
import { startRegistrySync, type RegistrySync } from './registry-sync.js';
import { agentRegistryKind } from './config/derived.js';
import type { Telemetry } from './telemetry.js';
import { closeOnceInSteps, endpointsAt, runningExecutor, type RunningExecutor, type StartExecutorOptions } from './running-executor.js';

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
  if (storeKind(resolved) !== 'memory' || eventLogKind(resolved) !== 'memory') {
    throw new ConfigError(
      'Invalid configuration: durable stores (store, eventLog) serve a single agent for now; with "agents", run one executor per agent or use the in-memory store',
    );
  }
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
  const createOptions = {
    logger,
    instrumentation,
    registry: options.handlers,
    env: options.env ?? process.env,
    fetch: options.fetch,
    agentHandlers: options.agentHandlers,
    extraInterfaces,
  };
  const agents: ServedAgent[] = await createAgents(resolved, createOptions);
  const root = defaultAgentOf(resolved, agents);
  const mounts = new AgentMounts();
  const live = new AgentDirectory({ mounts, mountOptions, defaultId: root.id, removalGraceMs: resolved.shutdownGraceMs, metrics, logger });
  directory = live;
  for (const agent of agents) live.add(agent);
  let listener: RunningA2AServer;
  let registry: RegistrySync | undefined;
  try {
    // Draining is service-wide: every agent's handler shuts down together.
    const readiness = () => checkReadiness({ draining: () => live.list().some((a) => a.handler.draining) });
    const router = agentRouter(root.handler, { byMetadata: (id) => live.handler(id), byTenant: (id) => (id === root.id ? undefined : live.handler(id)) });
    // The registry's agents first, so the first request already finds them.
    if (agentRegistryKind(resolved)) registry = await startRegistrySync(resolved, live, createOptions);
    grpc = await startGrpc(root.handler, resolved, logger, readiness, tls?.grpc, router);
    listener = await startA2AServer({
      handler: root.handler,
      ...rootListenerOptions(resolved, logger, { readiness, metrics, grpcInterfaces, tls }),
      mounts,
    });
  } catch (error) {
    await registry?.close();
    await grpc?.close(0);
    await Promise.all(live.list().map((a) => closeExecutor(a.executor)));
    throw error;
  }

  const close = closeOnceInSteps(resolved, logger, [
    ['the agent registry', async () => registry?.close()],
    ['the request handlers', () => Promise.all(live.list().map((a) => a.handler.shutdown(resolved.shutdownGraceMs)))],
    ['the agents', () => Promise.all(live.list().map((a) => closeExecutor(a.executor)))],
    ['the listeners', () => Promise.all([listener.close(), grpc?.close(GRPC_CLOSE_GRACE_MS)])],
  ]);
  const served = () => live.list().map((a) => ({ id: a.id, handler: a.handler, endpoints: endpointsAt(a.mountPath, resolved.basePath) }));
  return runningExecutor({ config: resolved, listener, grpc, handler: root.handler, agents: served, close });
}
